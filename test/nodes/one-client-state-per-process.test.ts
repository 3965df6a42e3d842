/**
 * The LinkShort node and the LinkShort Trigger in one n8n process share the client's process-wide
 * state: one rate limiter per account and one memory of its page size. n8n loads each node file on
 * its own (`require` of the built dist files, as the harness does); both must reach one copy of
 * the client, not one bundled into each.
 */
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { executeNode, poll, type Credentials } from './harness';

let sandbox: Sandbox;
let account: Credentials;
afterEach(() => sandbox.close());

const limitsAsked = (requests: Sandbox['requests']) =>
  requests.filter((request) => request.path === '/api/urls').map((request) => new URLSearchParams(request.query).get('limit'));

describe('one client state per account in an n8n process, whichever node file uses it', () => {
  it("paces the node's and the trigger's requests on one key in one window: a trigger poll sends nothing into a window the node spent", async () => {
    const limit = 3;
    const windowMs = 60_000;
    // The sandbox's clock stands still at the start of the next window (its windows are aligned to
    // whole minutes): the window the node spends ends a minute or more from now, after the test.
    const now = (Math.floor(Date.now() / windowMs) + 1) * windowMs;
    sandbox = await startSandbox({ rateLimit: { limit, windowMs }, now: () => now });
    account = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };

    const items = await executeNode(
      account,
      { resource: 'account', operation: 'get' },
      Array.from({ length: limit }, () => ({ json: {} })),
    );
    expect(items).toHaveLength(limit);
    expect(sandbox.requests).toHaveLength(limit);

    // The trigger never waits for the rate limit: knowing the window spent, its poll reads nothing.
    const { result } = await poll(account, { event: 'newLink' }, {});
    expect(result).toBeNull();
    expect(sandbox.requests).toHaveLength(limit);
  });

  it("asks the node's link index for the page size the trigger's poll learned from the same account", async () => {
    const maxPageSize = 100;
    sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 }, maxPageSize });
    account = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };

    await poll(account, { event: 'newLink' }, {});
    // The first large page taught the account's size; later pages ask for it.
    expect(limitsAsked(sandbox.requests)).toEqual(['1000']);

    const [link] = await executeNode(
      account,
      { resource: 'link', operation: 'get', id: { mode: 'url', value: 'https://missing.example/no-such-alias' } },
      undefined,
      { continueOnFail: true },
    );
    expect(link?.json).toMatchObject({ error: expect.any(String) });
    const asked = limitsAsked(sandbox.requests).slice(1);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked).not.toContain('1000');
  });
});
