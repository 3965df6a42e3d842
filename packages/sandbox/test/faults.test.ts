import { ConnectionError, LinkShortClient, ResponseError, TimeoutError, type LinkShortError } from "@linkshort/client";
import { startSandbox, type FaultKind, type Sandbox } from "@linkshort/sandbox";

describe("the client's error classes and retries against injected faults", () => {
  let sandbox: Sandbox;
  let client: LinkShortClient;
  const quickSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 20)));

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowMs: 60_000 } });
    client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, timeoutMs: 300, sleep: quickSleep });
  });
  afterEach(() => sandbox.faults.clear());
  afterAll(() => sandbox.close());

  const countRequests = (path: string) => sandbox.requests.filter((r) => r.path === path).length;

  const expectations: Array<[FaultKind, (new (...args: never[]) => LinkShortError) | null, boolean]> = [
    // kind, class a create surfaces, whether a GET recovers by retrying
    ["5xx", ResponseError, true],
    ["drop", ConnectionError, true],
    ["delay", TimeoutError, true],
    ["html", ResponseError, false],
    ["empty", ResponseError, false],
    ["malformed", ResponseError, false],
    ["429", null, true],
  ];

  // Far past the client's 300 ms: undici times out the headers on its coarse timers (up to a second
  // late, more on a loaded machine), and a delay of 1 s let a create's answer arrive in time.
  const delayMs = 5_000;

  it.each(expectations)("%s: GET retries when it is worth it; a create is never sent twice", async (kind, createError, getRecovers) => {
    sandbox.faults.set([{ kind, times: 1, delayMs }]);
    const before = countRequests("/api/account");
    if (getRecovers) {
      await expect(client.account.get()).resolves.toMatchObject({ username: "demo" });
      expect(countRequests("/api/account") - before).toBe(2);
    } else {
      await expect(client.account.get()).rejects.toBeInstanceOf(ResponseError);
      expect(countRequests("/api/account") - before).toBe(1);
    }

    sandbox.faults.set([{ kind, times: 1, delayMs, route: "^POST /api/url/add$" }]);
    const creates = countRequests("/api/url/add");
    const linksBefore = sandbox.store.state.links.length;
    const url = `https://example.com/fault-${kind}`;
    if (createError) {
      await expect(client.links.create({ url })).rejects.toBeInstanceOf(createError);
      expect(countRequests("/api/url/add") - creates).toBe(1);
    } else {
      // A limit answer means the server did nothing: waiting and sending again is safe.
      await expect(client.links.create({ url })).resolves.toMatchObject({ shorturl: expect.any(String) });
      expect(countRequests("/api/url/add") - creates).toBe(2);
    }
    // Only the delay fault lets the create through (the answer arrives too late).
    const made = sandbox.store.state.links.length - linksBefore;
    expect(made).toBe(kind === "delay" || createError === null ? 1 : 0);
  });

  it("a connection dropped after the server committed a create is reported, and the create is not repeated", async () => {
    sandbox.faults.set([{ kind: "drop", times: 1, when: "after", route: "^POST /api/url/add$" }]);
    const before = sandbox.store.state.links.length;
    const error = await client.links.create({ url: "https://example.com/after-drop" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).mayHaveReachedServer).toBe(true);
    expect(sandbox.store.state.links.length - before).toBe(1);
  });

  it("faults can be switched per route and per run over HTTP", async () => {
    const response = await fetch(`${sandbox.baseUrl}/__sandbox/faults`, {
      method: "POST",
      headers: { authorization: `Bearer ${sandbox.adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ rules: [{ kind: "html", route: "^GET /api/pixels$", times: 1 }] }),
    });
    expect(response.status).toBe(200);
    await expect(client.pixels.list()).rejects.toThrow(/HTML page/);
    await expect(client.pixels.list()).resolves.toMatchObject({ currentpage: 1 });
  });

  it("a refused connection is a ConnectionError that certainly never reached a server", async () => {
    const closed = await startSandbox();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const offline = new LinkShortClient({ baseUrl, apiKey: "x".repeat(32), maxRetries: 0 });
    const error = await offline.links.create({ url: "https://example.com" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).mayHaveReachedServer).toBe(false);
  });
});
