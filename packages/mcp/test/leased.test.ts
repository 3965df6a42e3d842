/** Works of one replica under an account's sweep lease: the lease stays held while any of them runs. */
import type { LinkIndex } from "@linkshort/client";
import { whileLeased } from "../src/account/shared/leased";
import type { SharedIndexStore } from "../src/store/index-store";
import type { SyncHost as SharedSyncHost } from "../src/account/index-sync";
import { SharedIndexSync } from "../src/account/shared/index-sync";

function leaseStore() {
  const events: string[] = [];
  const store: SharedIndexStore = {
    leaseMs: 60_000,
    takeLease: () => (events.push("take"), Promise.resolve(true)),
    releaseLease: () => (events.push("release"), Promise.resolve()),
    changedSinceLoad: () => Promise.resolve(false),
    load: () => Promise.resolve(undefined),
    save: () => Promise.resolve(),
  };
  return { store, events };
}

const never = new AbortController().signal;

test("two overlapping works of one replica: the lease is let go when the last ends, not when the first does", async () => {
  const { store, events } = leaseStore();
  let endLong!: () => void;
  const long = whileLeased(store, never, () => new Promise<string>((resolve) => (endLong = () => resolve("long"))));
  const short = await whileLeased(store, never, () => Promise.resolve("short"));
  expect(short).toEqual({ value: "short" });
  // Let go now, another replica could take the lease and read the service beside the long work.
  expect(events).toEqual(["take", "take"]);
  endLong();
  await expect(long).resolves.toEqual({ value: "long" });
  expect(events).toEqual(["take", "take", "release"]);
});

test("a work that fails counts as ended: the lease is let go once the others are over", async () => {
  const { store, events } = leaseStore();
  let endLong!: () => void;
  const long = whileLeased(store, never, () => new Promise<void>((resolve) => (endLong = resolve)));
  await expect(whileLeased(store, never, () => Promise.reject(new Error("the service failed")))).rejects.toThrow("the service failed");
  expect(events).not.toContain("release");
  endLong();
  await long;
  expect(events.filter((event) => event === "release")).toHaveLength(1);
  // And the next work takes it again and lets it go after itself.
  await whileLeased(store, never, () => Promise.resolve());
  expect(events.slice(-2)).toEqual(["take", "release"]);
});

test("while any of its reads under the lease runs, a replica loads nothing other replicas saved over the index it is reading into", async () => {
  const { store } = leaseStore();
  store.changedSinceLoad = () => Promise.resolve(true);
  const replaced: unknown[] = [];
  const ends: Array<() => void> = [];
  const host: SharedSyncHost = {
    index: () => ({ freshness: () => ({ complete: false }) }) as unknown as LinkIndex,
    replace: (stored) => (replaced.push(stored), Promise.resolve()),
    sync: () => new Promise<void>((resolve) => ends.push(resolve)),
    failed: () => undefined,
  };
  const sync = new SharedIndexSync(store, host);
  const first = sync.syncLeased(never, {});
  const second = sync.syncLeased(never, {});
  while (ends.length < 2) await new Promise((resolve) => setImmediate(resolve));
  const loadedBefore = replaced.length;
  ends[0]!();
  await first;
  await sync.catchUp();
  expect(replaced).toHaveLength(loadedBefore);
  ends[1]!();
  await second;
  await sync.catchUp();
  expect(replaced).toHaveLength(loadedBefore + 1);
});
