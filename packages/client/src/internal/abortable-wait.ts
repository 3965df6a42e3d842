import { AbortedError } from "../errors";
import type { Sleep } from "../transport";

/**
 * `promise`, or the client's `AbortedError` as soon as `signal` aborts; also when `promise` itself
 * rejects because of the abort (a host's sleep may reject with the signal's reason, a `DOMException`).
 * The listener is removed either way.
 */
export async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  let onAbort!: () => void;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(new AbortedError());
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } catch (error) {
    throw signal.aborted ? new AbortedError() : error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/**
 * Every wait of the client: the host's `sleep`, ended by an abort with the client's `AbortedError`
 * whatever that sleep does with the signal (n8n's ignores it, Raycast's rejects with its reason).
 */
export function sleepUnlessAborted(sleep: Sleep, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(new AbortedError());
  return untilAborted(sleep(ms, signal), signal);
}
