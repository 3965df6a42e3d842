/** What the linkshort Raycast extension declares in its package.json: its commands and AI tools, each with its source file. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import manifest from "../../raycast-extension/package.json";

const SOURCE = join(__dirname, "../../raycast-extension/src");

const COMMANDS = ["qr-codes", "recent-links", "search-links", "shorten-link", "shorten-link-with-options", "shorten-links-in-bulk"];
const AI_TOOLS = ["delete-link", "find-links", "get-link-stats", "shorten-link"];

test("the extension declares exactly the listed commands, each with its src/<name>.tsx", () => {
  const names = manifest.commands.map((command) => command.name).sort();
  expect(names).toEqual(COMMANDS);
  for (const name of names) expect({ name, source: existsSync(join(SOURCE, `${name}.tsx`)) }).toEqual({ name, source: true });
});

test("the extension declares exactly the listed AI tools, each with its src/tools/<name>.ts", () => {
  const names = manifest.tools.map((tool) => tool.name).sort();
  expect(names).toEqual(AI_TOOLS);
  for (const name of names) expect({ name, source: existsSync(join(SOURCE, "tools", `${name}.ts`)) }).toEqual({ name, source: true });
});
