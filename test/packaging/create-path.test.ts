/**
 * Creating a link is one service: every front end makes its links through the client's
 * `createLink` (checked once, kept in the account's link index, reused as `REUSE_RULE` says), and
 * says when a link is reused in the client's words.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RECORDED_REUSE_RULE, REUSE_RULE } from "@linkshort/client";
import { createFields } from "../../nodes/nodes/LinkShort/actions/link/fields";
import { TOOLS_BY_NAME } from "../../packages/mcp/src/tools";
import manifest from "../../raycast-extension/package.json";

const ROOT = join(__dirname, "../..");
const FRONT_ENDS = ["packages/mcp/src", "nodes/nodes", "raycast-extension/src"];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

const sources = FRONT_ENDS.flatMap(sourceFiles).map((path) => ({ path, text: readFileSync(join(ROOT, path), "utf8") }));

test("no front end makes a link but through createLink", () => {
  const bypassing = sources.filter(({ text }) => /\blinks\s*\.\s*create\s*\(|\bcreateOrReuse\b|\bcreateTracked\b/.test(text)).map(({ path }) => path);
  expect(bypassing).toEqual([]);
});

test("each front end's create paths call createLink", () => {
  const callers = sources
    .filter(({ text }) => /\bcreateLink\s*\(/.test(text))
    .map(({ path }) => path)
    .sort();
  expect(callers).toEqual([
    "nodes/nodes/LinkShort/actions/link/create.operation.ts",
    "packages/mcp/src/tools/links.ts",
    "raycast-extension/src/api/shorten.ts",
  ]);
  const raycastPaths = [
    "raycast-extension/src/components/LinkForm.tsx",
    "raycast-extension/src/shorten-link.tsx",
    "raycast-extension/src/shorten-links-in-bulk.tsx",
    "raycast-extension/src/tools/shorten-link.ts",
  ];
  for (const path of raycastPaths) {
    const text = sources.find((source) => source.path === path)!.text;
    expect({ path, throughShorten: /from "\.\.?\/api\/shorten"/.test(text) }).toEqual({ path, throughShorten: true });
  }
});

test("n8n, MCP and Raycast describe reuse in the client's words", () => {
  const reuseField = createFields.flatMap((field) => field.options ?? []).find((option) => "name" in option && option.name === "reuse");
  // n8n keeps a record of the links made (with password hashes): its rule is the recorded one, whole, never joined to REUSE_RULE.
  expect(reuseField).toMatchObject({ description: expect.stringContaining(RECORDED_REUSE_RULE) });
  expect((reuseField as { description: string }).description).not.toContain("and no password");
  const reuseOf = (name: string) => (TOOLS_BY_NAME.get(name)!.listing.inputSchema.properties as Record<string, { description?: string }>).reuse?.description;
  expect(reuseOf("shorten_link")).toContain(REUSE_RULE);
  // The MCP tool list says the rule once: shorten_links' reuse points to shorten_link's.
  expect(reuseOf("shorten_links")).toMatch(/^As shorten_link's reuse/);
  // Raycast's manifest is JSON that Raycast reads itself: it carries the sentence as the client words it.
  const preference = manifest.preferences.find((candidate) => candidate.name === "reuseExisting")!;
  expect(preference.description).toContain(REUSE_RULE);
});
