/**
 * Failures come back as tool errors a model can act on, and the server keeps serving: rate limits
 * (paced within the bound, "retry after N s" beyond it), an unreachable server, a wrong key and a
 * broken answer. The API key appears in nothing the server says.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { startSession, unusedAddress, type Session } from "./helpers";

const sessions: Session[] = [];
const sandboxes: Sandbox[] = [];

async function setUp(options: Parameters<typeof startSandbox>[0], args: string[] = [], apiKey?: string) {
  const sandbox = await startSandbox({ port: 0, ...options });
  sandboxes.push(sandbox);
  const session = await startSession({ baseUrl: sandbox.baseUrl, apiKey: apiKey ?? sandbox.userKey }, args);
  sessions.push(session);
  return { sandbox, session };
}

/** The server reads the account's links from start (its link index): waits for that first page, which counts against the limit. */
async function firstIndexRead(sandbox: Sandbox): Promise<void> {
  while (!sandbox.requests.some((request) => request.path === "/api/urls")) await new Promise((resolve) => setTimeout(resolve, 10));
}

const accountRequests = (sandbox: Sandbox) => sandbox.requests.filter((request) => request.path === "/api/account").length;

/**
 * The sandbox's windows are aligned to the wall clock (they end at multiples of their length). Waits,
 * when needed, until at least `marginMs` of the current one is left, and returns when it ends.
 */
async function freshWindow(windowMs: number, marginMs: number): Promise<number> {
  const end = () => (Math.floor(Date.now() / windowMs) + 1) * windowMs;
  if (end() - Date.now() < marginMs) await new Promise((resolve) => setTimeout(resolve, end() - Date.now() + 50));
  return end();
}

/** The N of "retry after N s" is the time from the call to the window's end (the call ran between `sentAt` and now). */
function expectRetryAfter(text: string, windowEnd: number, sentAt: number): void {
  expect(text).toMatch(/^Rate limited by the LinkShort server, retry after \d+ s\. Nothing was changed by this call\.$/);
  const seconds = Number(/retry after (\d+) s/.exec(text)?.[1]);
  expect(seconds).toBeGreaterThanOrEqual(Math.floor((windowEnd - Date.now()) / 1000));
  expect(seconds).toBeLessThanOrEqual(Math.ceil((windowEnd - sentAt) / 1000));
}

afterEach(async () => {
  for (const session of sessions.splice(0)) {
    const said = [...session.transcript, session.stderr()].join("\n");
    await session.close();
    for (const sandbox of sandboxes) {
      expect(said).not.toContain(sandbox.userKey);
      expect(said).not.toContain(sandbox.adminKey);
    }
  }
  for (const sandbox of sandboxes.splice(0)) await sandbox.close();
});

test("within the wait bound, the client's pacing spreads calls over the server's windows without a limit answer", async () => {
  const { sandbox, session } = await setUp({ rateLimit: { limit: 2, windowMs: 1500 } });
  const started = Date.now();
  for (let call = 0; call < 5; call += 1) expect(await session.call("get_account")).toMatchObject({ isError: false });
  expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
  // Exactly five requests: none was refused by the server and sent again.
  expect(accountRequests(sandbox)).toBe(5);
});

test("a call that would wait past --max-wait answers 'rate limited, retry after N s' without sending, and the server keeps serving", async () => {
  const windowEnd = await freshWindow(60_000, 20_000);
  const { sandbox, session } = await setUp({ rateLimit: { limit: 3, windowMs: 60_000 } }, ["--max-wait", "1"]);
  await firstIndexRead(sandbox);
  expect(await session.call("get_account")).toMatchObject({ isError: false });
  expect(await session.call("get_account")).toMatchObject({ isError: false });
  const sentAt = Date.now();
  const limited = await session.call("get_account");
  expect(limited.isError).toBe(true);
  expectRetryAfter(limited.text, windowEnd, sentAt);
  expect(accountRequests(sandbox)).toBe(2);
  const { tools } = await session.client.listTools();
  expect(tools.length).toBeGreaterThan(0);
}, 60_000);

test("when another client spent the limit, the server's limit answer becomes 'retry after N s'", async () => {
  const windowEnd = await freshWindow(60_000, 20_000);
  const { sandbox, session } = await setUp({ rateLimit: { limit: 3, windowMs: 60_000 } }, ["--max-wait", "2"]);
  for (let call = 0; call < 3; call += 1) {
    await fetch(`${sandbox.baseUrl}/api/account`, { headers: { Authorization: `Bearer ${sandbox.userKey}` } });
  }
  const sentAt = Date.now();
  const limited = await session.call("shorten_link", { url: "https://example.com/limited" });
  expect(limited.isError).toBe(true);
  expectRetryAfter(limited.text, windowEnd, sentAt);
  expect(sandbox.store.state.links.some((link) => link.url === "https://example.com/limited")).toBe(false);
}, 60_000);

test("a proxy's HTTP 429 over a window with requests left is waited out for its Retry-After within the bound, refused past it", async () => {
  await freshWindow(3_000, 1_500);
  const waited = await setUp({ rateLimit: { limit: 30, windowMs: 3_000 } });
  await firstIndexRead(waited.sandbox);
  waited.sandbox.faults.set([{ kind: "429", times: 1 }]);
  expect(await waited.session.call("get_account")).toMatchObject({ isError: false });
  expect(waited.sandbox.faults.injected["429"]).toBe(1);
  expect(accountRequests(waited.sandbox)).toBe(2);

  const refused = await setUp({ rateLimit: { limit: 30, windowMs: 60_000 } }, ["--max-wait", "0"]);
  await firstIndexRead(refused.sandbox);
  refused.sandbox.faults.set([{ kind: "429", times: 1 }]);
  const answer = await refused.session.call("get_account");
  expect(answer.isError).toBe(true);
  // The sandbox's 429 fault passes on headers of a window with requests left: its Retry-After (1 s) is when it lifts.
  expect(answer.text).toMatch(/retry after 1 s\./);
}, 60_000);

test("an unreachable server gives a tool error naming LINKSHORT_BASE_URL, and the server keeps serving", async () => {
  const session = await startSession({ baseUrl: await unusedAddress(), apiKey: "sk-unreachable-test-key" });
  sessions.push(session);
  for (const [name, args] of [
    ["get_account", {}],
    ["shorten_link", { url: "https://example.com" }],
  ] as const) {
    const answer = await session.call(name, args);
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/^Could not reach the LinkShort server: .*ECONNREFUSED.*LINKSHORT_BASE_URL/);
  }
  expect((await session.client.listTools()).tools.length).toBeGreaterThan(0);
  expect([...session.transcript, session.stderr()].join("\n")).not.toContain("sk-unreachable-test-key");
});

test("a wrong key is reported as a configuration problem, without the key", async () => {
  const { session } = await setUp({}, [], "sk-wrong-key-0123456789");
  const answer = await session.call("get_account");
  expect(answer.isError).toBe(true);
  expect(answer.text).toMatch(/^The LinkShort server refused the API key \(LINKSHORT_API_KEY\)/);
  expect([...session.transcript, session.stderr()].join("\n")).not.toContain("sk-wrong-key-0123456789");
});

test("a broken answer to a create is a tool error (never retried, so never two links)", async () => {
  const { sandbox, session } = await setUp({ faults: [{ kind: "malformed", route: "^POST /api/url/add$", times: 1 }] });
  const answer = await session.call("shorten_link", { url: "https://example.com/broken" });
  expect(answer.isError).toBe(true);
  expect(answer.text).toMatch(/^The LinkShort server sent an answer that could not be read: The server sent malformed JSON/);
  expect(sandbox.requests.filter((request) => request.path === "/api/url/add")).toHaveLength(1);
});
