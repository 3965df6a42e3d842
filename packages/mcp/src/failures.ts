/** Turns what a client call throws into the text of a tool error a model can act on. */
import {
  AbortedError,
  ApiError,
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseError,
  TimeoutError,
  ValidationError,
} from "@linkshort/client";

/** Seconds until a rate-limited call may be tried again, when the server said, as the client reads it. */
function retryAfterSeconds(error: RateLimitError, now: number): number | undefined {
  const liftsAt = error.liftsAt(now);
  return liftsAt === undefined ? undefined : Math.max(1, Math.ceil((liftsAt - now) / 1000));
}

/** A message without its closing full stop, to be followed by more of the sentence. */
const clause = (message: string) => message.replace(/[.\s]+$/, "");

export function describeFailure(error: unknown, toolName: string, now = Date.now()): string {
  if (error instanceof ValidationError) {
    const fields = error.issues.map((issue) => `${issue.field}: ${issue.message}`).join("; ");
    return `Invalid arguments for ${toolName}: ${fields}. Correct these fields and call ${toolName} again.`;
  }
  if (error instanceof RateLimitError) {
    const seconds = retryAfterSeconds(error, now);
    return seconds === undefined
      ? "Rate limited by the LinkShort server; retry in a minute."
      : `Rate limited by the LinkShort server, retry after ${seconds} s. Nothing was changed by this call.`;
  }
  if (error instanceof NotFoundError) {
    return `Not found: ${clause(error.message)}. The id may be wrong or the item was deleted; look it up again (for links, with find_links).`;
  }
  if (error instanceof AuthenticationError) {
    return `The LinkShort server refused the API key (LINKSHORT_API_KEY): ${clause(error.message)}. The user must fix the server's configuration; retrying will not help.`;
  }
  if (error instanceof PermissionError) {
    return `Not permitted: ${clause(error.message)}. The account behind this API key may not do this (plan or admin rights).`;
  }
  if (error instanceof ApiError) return `The LinkShort server refused the request: ${error.message}`;
  if (error instanceof ConnectionError || error instanceof TimeoutError) {
    return `Could not reach the LinkShort server: ${clause(error.message)}. It may be down or LINKSHORT_BASE_URL may be wrong; retry later.`;
  }
  if (error instanceof ResponseError) {
    return `The LinkShort server sent an answer that could not be read: ${error.message}${error.excerpt ? ` (${error.excerpt})` : ""}`;
  }
  if (error instanceof AbortedError) return "The call was cancelled.";
  return `Unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
}
