/** The built bundle holds only the server's own code: HTTP, validation, paging and pacing stay in @linkshort/client. */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import "./helpers"; // fails early, with advice, when the bundle is not built

const ALLOWED = [/^@linkshort\/client$/, /^@modelcontextprotocol\/sdk\/(server\/(index|stdio|streamableHttp)|shared\/stdio|types)\.js$/, /^zod\/v4$/, /^(node:)?(http|util|crypto|net|fs|os)$/];

test.each(["cli.js", "index.js"])("dist/%s requires only the client, the SDK, zod and node:http/util/crypto/net/fs/os (the home folder of the index file)", (name) => {
  const file = join(__dirname, "../dist", name);
  const source = readFileSync(file, "utf8");
  const required = [...source.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]!);
  expect(required.length).toBeGreaterThan(0);
  for (const module of required) expect(ALLOWED.some((pattern) => pattern.test(module))).toBe(true);
  // None of the client's machinery was copied in.
  expect(source).not.toMatch(/undici|X-RateLimit|Retry-After|maxpage\s*[<>]=?/i);
  // The one check of its own: arguments against the tool's input schema (the client's schemas), as the SDK's McpServer did.
  expect([...source.matchAll(/safeParse\(/g)].length).toBeLessThanOrEqual(1);
  expect(statSync(file).size).toBeLessThan(80_000);
});
