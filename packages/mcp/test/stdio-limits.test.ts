/**
 * A message line longer than the stdio transport reads (10 MiB) stops the server with a reason on
 * stderr and a non-zero status, so that the MCP client shows a failure rather than a silent exit.
 */
import { spawn } from "node:child_process";
import { CLI } from "./helpers";

test("an 11 MiB line on stdin ends the server with status 1 and says why", async () => {
  const server = spawn(process.execPath, [CLI], {
    env: { PATH: process.env.PATH ?? "", LINKSHORT_BASE_URL: "http://127.0.0.1:9", LINKSHORT_API_KEY: "stdio-limit-key-0123456789" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  server.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  server.stdout.resume();
  const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
  server.stdin.on("error", () => undefined);
  const huge = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"${"x".repeat(11 * 1024 * 1024)}"}}\n`;
  server.stdin.write(huge);
  const code = await exited;
  expect(code).toBe(1);
  expect(stderr).toMatch(/linkshort-mcp: a message from the MCP client is larger than 10 MiB/);
  expect(stderr).not.toContain("stdio-limit-key-0123456789");
});
