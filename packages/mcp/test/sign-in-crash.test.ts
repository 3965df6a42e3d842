/**
 * `--sign-in` serves many people's keys: a failure nobody caught (an exception, a rejection) is
 * logged with none of their keys and no token in it, in any form the message holds them.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHttpServerProcess } from "./helpers";
import { eventually } from "./replica-support";
import { exchange, listTools, registerAndAuthorize } from "./sign-in-helpers";

let sandbox: Sandbox;
let server: ChildProcess | undefined;
const dir = mkdtempSync(join(tmpdir(), "linkshort-mcp-crash-"));

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
});

afterAll(async () => {
  server?.kill();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

test("an uncaught exception and an unhandled rejection are logged without the signed-in person's key or their tokens", async () => {
  // Loaded into the server's process: on SIGUSR2 it fails, outside any request, with the file's text.
  const preload = join(dir, "fail-on-signal.cjs");
  const message = join(dir, "message.txt");
  writeFileSync(
    preload,
    `const { readFileSync } = require("node:fs");
     process.on("SIGUSR2", () => {
       const text = readFileSync(${JSON.stringify(message)}, "utf8");
       void Promise.reject(new Error("rejected: " + text));
       setImmediate(() => { throw new Error("thrown: " + text); });
     });`,
  );
  const started = await startHttpServerProcess({ baseUrl: sandbox.baseUrl, apiKey: "", more: { NODE_OPTIONS: `--require ${preload}` } }, ["--sign-in"]);
  server = started.child;
  const issuer = new URL(started.url).origin;
  const tokens = (await exchange(issuer, await registerAndAuthorize(issuer, started.url, sandbox.userKey))).body as {
    access_token: string;
    refresh_token: string;
  };
  expect((await listTools(started.url, { Authorization: `Bearer ${tokens.access_token}` })).status).toBe(200);

  const basic = Buffer.from(`user:${sandbox.userKey}`).toString("base64");
  const secrets = [sandbox.userKey, tokens.access_token, tokens.refresh_token, basic, encodeURIComponent(sandbox.userKey)];
  writeFileSync(
    message,
    `GET /api/account?key=${sandbox.userKey} failed (Authorization: Basic ${basic}); sent Authorization: Bearer ${tokens.access_token} and refresh_token=${tokens.refresh_token}`,
  );
  server.kill("SIGUSR2");
  const logged = await eventually(
    () => (started.stderr().match(/unexpected error: .*/g)?.length === 2 ? started.stderr() : undefined),
    5_000,
    "both failures logged",
  );
  expect(logged).toContain("unexpected error: thrown: GET /api/account?key=[redacted] failed");
  expect(logged).toContain("unexpected error: rejected: GET");
  for (const secret of secrets) expect(logged).not.toContain(secret);
  // No piece of the token either (a message cut after redaction, never before).
  for (const part of tokens.access_token.split(".")) expect(logged).not.toContain(part);
  expect(server.exitCode).toBeNull();
});
