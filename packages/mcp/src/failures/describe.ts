/**
 * Turns what a client call throws into the text of a tool error a model can act on. The client's
 * errors are told apart by code, never by class (another bundled copy of the client has its own).
 */
import { isLinkShortError, type NotFoundError, type RateLimitError, type ValidationError } from "@linkshort/client";
import { StoreUnavailableError } from "../auth/store";

/** The longest text from a server, a model or an error this server repeats in one message. */
export const MESSAGE_LIMIT = 500;
const MAX_ISSUES_SHOWN = 10;

/** `text` cut to `limit` characters (marked), before any other look at it: server and model texts can be megabytes. */
export function capped(text: string, limit = MESSAGE_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** Seconds until a rate-limited call may be tried again, when the server said, as the client reads it. */
function retryAfterSeconds(error: RateLimitError, now: number): number | undefined {
  const liftsAt = error.liftsAt(now);
  return liftsAt === undefined ? undefined : Math.max(1, Math.ceil((liftsAt - now) / 1000));
}

const isClosing = (code: number) => code === 46 /* . */ || code === 32 || code === 9 || code === 10 || code === 13;

/** A message without its closing full stop, to be followed by more of the sentence. Linear: a scan back, no regex. */
export function clause(message: string): string {
  const text = capped(message);
  let end = text.length;
  while (end > 0 && isClosing(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(0, end);
}

/** Where a model can look a missing item up again, by tool. */
const LOOK_UP: Record<string, string> = {
  get_link: "look the link up again with find_links",
  update_links: "look the link up again with find_links",
  delete_links: "look the link up again with find_links",
  subscribe_user_to_plan: "look the ids up again with list_users and list_plans",
  get_user: "look the user up again with list_users",
  delete_user: "look the user up again with list_users",
};

function notFound(error: NotFoundError, toolName: string): string {
  const message = clause(error.message);
  if (/domain/i.test(message)) {
    return `Not found: ${message}. Use a domain listed by list_domains, written as listed (e.g. https://go.example.com), or omit domain for the service's own.`;
  }
  const lookUp = LOOK_UP[toolName];
  return lookUp ? `Not found: ${message}. The id may be wrong or the item was deleted; ${lookUp}.` : `Not found: ${message}.`;
}

/** The fields the client refused, each with why ("field: why; field: why"), as the user named them. */
export function refusedFields(error: ValidationError): string {
  return error.issues
    .slice(0, MAX_ISSUES_SHOWN)
    .map((issue) => `${capped(issue.field, 100)}: ${capped(issue.message, 200)}`)
    .join("; ");
}

export function describeFailure(error: unknown, toolName: string, now = Date.now()): string {
  if (error instanceof StoreUnavailableError)
    return `This server's own store cannot be reached: ${clause(error.message)}. Retry shortly: the server reconnects by itself.`;
  if (!isLinkShortError(error)) return `Unexpected failure: ${capped(error instanceof Error ? error.message : String(error))}`;
  if (isLinkShortError(error, "LINKSHORT_INVALID_INPUT")) {
    return `Invalid arguments for ${toolName}: ${refusedFields(error)}. Correct these fields and call ${toolName} again.`;
  }
  if (isLinkShortError(error, "LINKSHORT_RATE_LIMITED")) {
    const seconds = retryAfterSeconds(error, now);
    return seconds === undefined
      ? "Rate limited by the LinkShort server; retry in a minute."
      : `Rate limited by the LinkShort server, retry after ${seconds} s. Nothing was changed by this call.`;
  }
  if (isLinkShortError(error, "LINKSHORT_NOT_FOUND")) return notFound(error, toolName);
  if (isLinkShortError(error, "LINKSHORT_AUTHENTICATION_FAILED")) {
    return `The LinkShort server refused the API key (LINKSHORT_API_KEY): ${clause(error.message)}. The user must fix the server's configuration; retrying will not help.`;
  }
  if (isLinkShortError(error, "LINKSHORT_PERMISSION_DENIED")) {
    return `Not permitted: ${clause(error.message)}. The account behind this API key may not do this (plan or admin rights).`;
  }
  if (isLinkShortError(error, "LINKSHORT_API_ERROR")) return `The LinkShort server refused the request: ${capped(error.message)}`;
  if (isLinkShortError(error, "LINKSHORT_CONNECTION_FAILED", "LINKSHORT_TIMEOUT")) {
    return `Could not reach the LinkShort server: ${clause(error.message)}. It may be down or LINKSHORT_BASE_URL may be wrong; retry later.`;
  }
  if (isLinkShortError(error, "LINKSHORT_UNREADABLE_ANSWER", "LINKSHORT_ANSWER_TOO_LARGE")) {
    return `The LinkShort server sent an answer that could not be read: ${capped(error.message)}${error.excerpt ? ` (${capped(error.excerpt)})` : ""}`;
  }
  if (isLinkShortError(error, "LINKSHORT_ABORTED")) return "The call was cancelled.";
  return `Unexpected failure: ${capped(error.message)}`;
}

/** The answer when a call outlasts its deadline; a change may have reached the server before it stopped. */
export function deadlineFailure(toolName: string, deadlineMs: number, changes: boolean): string {
  const seconds = Math.round(deadlineMs / 1000);
  const outcome = changes ? " The change may or may not have been made: check (find_links, get_link, list_qr_codes, list_users) before calling again." : "";
  return `The LinkShort server did not answer ${toolName} within ${seconds} s, so the call was stopped. The server may be down or overloaded: retry later, or tell the user.${outcome}`;
}

interface InputIssue {
  message: string;
  path: PropertyKey[];
}

/** Arguments the tool's input schema refused, each as "why at field" (the SDK's wording, which clients know). */
export function invalidArguments(toolName: string, issues: readonly InputIssue[]): string {
  const listed = issues.slice(0, MAX_ISSUES_SHOWN).map((issue) => {
    const where = issue.path.map((part) => capped(String(part), 100)).join(".");
    const message = capped(issue.message, 200);
    return where ? `${message} at ${where}` : message;
  });
  const more = issues.length > MAX_ISSUES_SHOWN ? `\n(and ${issues.length - MAX_ISSUES_SHOWN} more)` : "";
  return `Input validation error: Invalid arguments for tool ${toolName}: ${listed.join("\n")}${more}`;
}

export function unknownTool(name: string, isAdminTool: boolean): string {
  return isAdminTool
    ? `Tool ${name} not found: the administrators' tools are offered only when the server runs with --admin and an administrator's API key.`
    : `Tool ${name} not found: list the tools for the ones this server offers.`;
}
