/**
 * A closed command's abort reaches the extension as the client's AbortedError, also when it lands
 * in one of the client's waits: Raycast's sleep rejects with the signal's reason (a DOMException).
 */
import { AbortedError } from "@linkshort/client/core";
import type { Sandbox, SandboxOptions } from "@linkshort/sandbox";
import { sandboxForRaycast } from "./account";
import { mock } from "./raycast-api-mock";
import { getClient } from "../../raycast-extension/src/api/client";
import { getAccountIndex, syncIndex } from "../../raycast-extension/src/api/account-indexes";

let sandbox: Sandbox;
afterEach(() => sandbox.close());

const apiRequests = () => sandbox.requests.filter((request) => request.path.startsWith("/api/"));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function useSandbox(options: SandboxOptions): Promise<void> {
  sandbox = await sandboxForRaycast(options);
  mock.reset();
}

it("an abort during the backoff before a retry rejects with AbortedError, and nothing more is sent", async () => {
  await useSandbox({ faults: [{ kind: "5xx" }] });
  const controller = new AbortController();
  const reading = getClient()
    .links.get(1, { signal: controller.signal })
    .catch((error: unknown) => error);
  // The second try's answer came back: its backoff (500 to 1,000 ms) is under way.
  while (apiRequests().length < 2) await pause(5);
  await pause(150);
  controller.abort();
  expect(await reading).toBeInstanceOf(AbortedError);
  await pause(1_000);
  expect(apiRequests()).toHaveLength(2);
});

it("an abort while the index's sweep waits for its turn rejects the sync with AbortedError", async () => {
  // Six requests a minute: the sweep reads its share of the window, then waits a long while for its next turn.
  await useSandbox({ seed: { links: 1_000 }, maxPageSize: 100, rateLimit: { limit: 6, windowMs: 60_000 } });
  const controller = new AbortController();
  const syncing = syncIndex(getAccountIndex(), { wait: true, signal: controller.signal }).catch((error: unknown) => error);
  let seen = -1;
  while (apiRequests().length === 0 || apiRequests().length !== seen) {
    seen = apiRequests().length;
    await pause(300);
  }
  controller.abort();
  expect(await syncing).toBeInstanceOf(AbortedError);
  expect(apiRequests()).toHaveLength(seen);
});

it("a sync shared with a view that closes while the sweep waits goes on for the view still open", async () => {
  await useSandbox({ seed: { links: 1_000 }, maxPageSize: 100, rateLimit: { limit: 6, windowMs: 60_000 } });
  const account = getAccountIndex();
  const closing = new AbortController();
  const staying = new AbortController();
  const first = syncIndex(account, { wait: true, signal: closing.signal }).catch((error: unknown) => error);
  let secondEnded: unknown = "still syncing";
  const second = syncIndex(account, { wait: true, signal: staying.signal }).then(
    () => (secondEnded = "resolved"),
    (error: unknown) => (secondEnded = error),
  );
  let seen = -1;
  while (apiRequests().length === 0 || apiRequests().length !== seen) {
    seen = apiRequests().length;
    await pause(300);
  }
  closing.abort();
  expect(await first).toBeInstanceOf(AbortedError);
  // The open view's call saw the shared sync end aborted and started its own, which waits for its turn.
  await pause(300);
  expect(secondEnded).toBe("still syncing");
  staying.abort();
  await second;
  expect(secondEnded).toBeInstanceOf(AbortedError);
});
