/**
 * The first sync of a large account runs in the background from start: tool calls go first. At the
 * service's own rate (30 requests a minute), the assistant's calls in the first seconds are served,
 * not refused as rate limited while the index reads pages.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { fillLinks } from "../../client/test/fill-links";
import { startSession, type Session } from "./helpers";

let sandbox: Sandbox;
let session: Session;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: "minimal", rateLimit: { limit: 30, windowMs: 60_000 } });
  fillLinks(sandbox, 5_000);
  session = await startSession({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey }, ["--max-wait", "2"]);
});
afterAll(async () => {
  await session.close();
  await sandbox.close();
});

test("8 get_account calls in the first 5 seconds of a 5,000-link first sync are all served; the sync goes on", async () => {
  const answers = [];
  const started = Date.now();
  for (let call = 0; call < 8; call += 1) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + call * 600 - Date.now())));
    answers.push(await session.call("get_account"));
  }
  expect(answers.filter((answer) => answer.isError).map((answer) => answer.text)).toEqual([]);
  const pages = sandbox.requests.filter((request) => request.path === "/api/urls").length;
  expect(pages).toBeGreaterThanOrEqual(3);
}, 30_000);
