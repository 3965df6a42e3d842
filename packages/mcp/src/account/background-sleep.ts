import { AbortedError, type Sleep } from "@linkshort/client";

/**
 * Node's sleep, with a timer that does not keep the process alive: a background sync waiting for
 * the next window must not hold a server whose client has gone (stdin closed, tests done).
 */
export const backgroundSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms).unref();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
