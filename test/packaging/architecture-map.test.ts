/**
 * ARCHITECTURE's lists for a newcomer ("Adding an endpoint", "Adding a resource", "Where the tests
 * are") lead to files that exist: each file a row of the endpoint and resource tables names is in
 * that row's package, each path the test map writes from the root exists, and every folder of
 * tests is on the map.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const ROOT = join(__dirname, "../..");
const architecture = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");

function section(title: string): string {
  const text = new RegExp(`^## ${title}\\n([\\s\\S]*?)(?=^## )`, "m").exec(architecture)?.[1];
  if (text === undefined) throw new Error(`ARCHITECTURE.md has no "## ${title}" section`);
  return text;
}

/** The paths from the root a text writes in backticks (`packages/…`, `test/…`), but those with a `<name>` part. */
const rootPaths = (text: string) =>
  [...text.matchAll(/`((?:packages|test|nodes|raycast-extension|scripts|docs)\/[^`\s]+)`/g)].map((match) => match[1]!).filter((path) => !path.includes("<"));

/** Where a row of the endpoint and resource tables finds the files it names: its package's source folder, then the package's own. */
const FOLDERS: Record<string, string[]> = {
  client: ["packages/client/src", "packages/client"],
  sandbox: ["packages/sandbox/src", "packages/sandbox"],
  MCP: ["packages/mcp/src", "packages/mcp", "packages/mcp/test"],
  n8n: ["nodes/nodes/LinkShort", "nodes"],
  Raycast: ["raycast-extension/src", "raycast-extension"],
};

/** Each file a table row names (a backticked name with a folder or a file ending), with the folders it may be in; `<name>` parts stand for any. */
function namedInRows(text: string): Array<{ row: string; path: string; folders: string[] }> {
  return [...text.matchAll(/^\| (\w+) \|(.*)\|$/gm)].flatMap(([, row, cells]) => {
    const folders = FOLDERS[row!];
    if (!folders) return [];
    return [...cells!.matchAll(/`([^`\s]+)`/g)]
      .map((match) => match[1]!)
      .filter((name) => (name.includes("/") || /\.(tsx?|json|md)$/.test(name)) && !name.includes("<"))
      .map((path) => ({ row: row!, path, folders: [...folders, "."] }));
  });
}

test.each(["Adding an endpoint", "Adding a resource"])("every file the rows of %s name is in its package", (title) => {
  const named = namedInRows(section(title));
  expect(new Set(named.map(({ row }) => row))).toEqual(new Set(Object.keys(FOLDERS)));
  expect(
    named.filter(({ path, folders }) => !folders.some((folder) => existsSync(join(ROOT, folder, path)))).map(({ row, path }) => `${row}: ${path}`),
  ).toEqual([]);
});

/** Whether `path` (from the root; a `*` in its last part stands for any text) names at least one file or folder. */
function found(path: string): boolean {
  if (!path.includes("*")) return existsSync(join(ROOT, path));
  const folder = dirname(path);
  const name = new RegExp(
    `^${basename(path)
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );
  return existsSync(join(ROOT, folder)) && readdirSync(join(ROOT, folder)).some((entry) => name.test(entry));
}

test("every path the test map names from the root exists", () => {
  const paths = rootPaths(section("Where the tests are"));
  expect(paths.length).toBeGreaterThan(20);
  expect(paths.filter((path) => !found(path))).toEqual([]);
});

test("every folder of the repository's tests is in the test map", () => {
  const map = section("Where the tests are");
  const folders = ["test", ...["packages/client", "packages/sandbox", "packages/mcp"].map((pkg) => `${pkg}/test`)].flatMap((base) =>
    base === "test"
      ? readdirSync(join(ROOT, base), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `test/${entry.name}`)
      : [base],
  );
  expect(folders.filter((folder) => !map.includes(`\`${folder}`))).toEqual([]);
});
