/**
 * Work done while holding an account's sweep lease (a shared store's): the lease is renewed every
 * third of its time while the work runs, and the work's signal aborts the moment a renewal fails
 * or finds the lease taken, so a replica that lost it stops reading at once.
 */
import type { SharedIndexStore } from "../../store/index-store";

/** How many works of this replica run under each store's lease: it is let go when the last ends, not the first. */
const worksUnderLease = new WeakMap<SharedIndexStore, number>();

/**
 * Runs `work` under the lease and lets the lease go after the last of this replica's works under it
 * ends; undefined (nothing run) while another replica holds it.
 */
export async function whileLeased<T>(
  store: SharedIndexStore,
  signal: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<{ value: T } | undefined> {
  if (!(await store.takeLease())) return undefined;
  worksUnderLease.set(store, (worksUnderLease.get(store) ?? 0) + 1);
  const lost = new AbortController();
  const renew = setInterval(() => {
    store.takeLease().then(
      (held) => held || lost.abort(),
      () => lost.abort(),
    );
  }, store.leaseMs / 3);
  renew.unref();
  try {
    return { value: await work(AbortSignal.any([signal, lost.signal])) };
  } finally {
    clearInterval(renew);
    const left = worksUnderLease.get(store)! - 1;
    worksUnderLease.set(store, left);
    if (left === 0) await store.releaseLease().catch(() => undefined);
  }
}
