/** With --admin and a user's key, the server checks the key's role at start, says so, and lists no admin tool it could not run. */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { startSession, type Session } from "./helpers";

let sandbox: Sandbox;
let session: Session;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
  session = await startSession({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey }, ["--admin"]);
});

afterAll(async () => {
  await session.close();
  await sandbox.close();
});

test("a user's key with --admin: the admin tools are not listed, and stderr says why", async () => {
  const names = (await session.client.listTools()).tools.map((tool) => tool.name);
  expect(names).toHaveLength(11);
  expect(names).not.toContain("list_users");
  expect(session.stderr()).toMatch(/--admin: the API key is not an administrator's.*admin tools are not offered/);
  // A tool the server does not offer is a protocol error (-32602), not a tool result.
  await expect(session.call("list_users")).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/administrator's API key/) });
  expect(session.stderr()).not.toContain(sandbox.userKey);
});
