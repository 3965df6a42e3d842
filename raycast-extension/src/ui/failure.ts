import { openExtensionPreferences, type Toast } from "@raycast/api";
import { showFailureToast } from "@raycast/utils";
import { isLinkShortError } from "@linkshort/client/core";

/**
 * What a failure asks of the user, from the client's `kind` (by code, never by class: a command's
 * bundle and a shared module may each hold a copy of the client):
 * - "settings": the API key or the Service URL is wrong (a rejected key, "no such page" where the
 *   API should be, a Service URL the client refuses); only the preferences can fix it.
 * - "transient": no network, a timeout, an error page or a rate-limit wait; trying again later can
 *   work, and the preferences are not to blame.
 * - "input": what was typed, or what the service refused; the form or the message names the field.
 */
export type FailureKind = "settings" | "transient" | "input";

export function failureKind(error: unknown): FailureKind {
  if (!isLinkShortError(error)) return "input";
  return error.kind === "settings" || error.kind === "transient" ? error.kind : "input";
}

/** A short hint for the failure's kind, for places with no toast (the menu bar). */
export function failureHint(error: unknown): string {
  switch (failureKind(error)) {
    case "settings":
      return "check the Service URL and API key in the preferences";
    case "transient":
      if (isLinkShortError(error, "LINKSHORT_RATE_LIMITED")) return "the service asks to wait, try again shortly";
      if (isLinkShortError(error, "LINKSHORT_UNREADABLE_ANSWER"))
        return "the service answered with an error page, try again";
      return "no connection to the service, try again";
    case "input":
      return error instanceof Error ? error.message : String(error);
  }
}

/**
 * A failure toast whose action fits the failure: "Open Extension Preferences" for a wrong key or
 * Service URL; "Retry" (when given) for a network failure, a timeout or a limit wait, and for a
 * refusal by the service; none for input the client refused (the message names the field).
 */
export async function showFailure(error: unknown, title: string, retry?: () => unknown): Promise<void> {
  let primaryAction: Toast.ActionOptions | undefined;
  if (failureKind(error) === "settings") {
    primaryAction = { title: "Open Extension Preferences", onAction: () => void openExtensionPreferences() };
  } else if (retry && !isLinkShortError(error, "LINKSHORT_INVALID_INPUT")) {
    primaryAction = { title: "Retry", onAction: () => void retry() };
  }
  await showFailureToast(error, { title, ...(primaryAction ? { primaryAction } : {}) });
}
