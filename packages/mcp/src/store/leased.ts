/**
 * Work done while holding an account's sweep lease (a shared store's): the lease is renewed every
 * third of its time while the work runs, and the work's signal aborts the moment a renewal fails
 * or finds the lease taken, so a replica that lost it stops reading at once.
 */
import type { SharedIndexStore } from "../server-index";

/** Runs `work` under the lease and lets the lease go after; undefined (nothing run) while another replica holds it. */
export async function whileLeased<T>(store: SharedIndexStore, signal: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<{ value: T } | undefined> {
  if (!(await store.takeLease())) return undefined;
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
    await store.releaseLease().catch(() => undefined);
  }
}
