/**
 * The server's own checks of a body's values, written from the API document and deployed servers'
 * behaviour (never the client's), and the failure they answer with.
 */

/** A failure answered the deployed way: HTTP 200 (or 403) with `error: 1` and a message. */
export class Failure extends Error {
  constructor(
    message: string,
    readonly status = 200,
  ) {
    super(message);
  }
}

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/;

/** The server's own URL check (deliberately not the client's): http or https with a host, no whitespace. */
export function isUrl(value: unknown): value is string {
  if (typeof value !== "string" || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** A body field as text, the way PHP reads form and JSON values. */
export function text(value: unknown, fallback = ""): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : fallback;
}

/** Whether a value is one of a spec enumeration's members. */
export const oneOf = (values: readonly string[], value: string): boolean => values.includes(value);
