import { openExtensionPreferences, type Toast } from "@raycast/api";
import { showFailureToast } from "@raycast/utils";
import { AuthenticationError, ValidationError } from "@linkshort/client/core";

/** A failure toast: with "Open Extension Preferences" on a key problem, else "Retry" when given. */
export async function showFailure(error: unknown, title: string, retry?: () => unknown): Promise<void> {
  let primaryAction: Toast.ActionOptions | undefined;
  if (error instanceof AuthenticationError) {
    primaryAction = { title: "Open Extension Preferences", onAction: () => void openExtensionPreferences() };
  } else if (retry && !(error instanceof ValidationError)) {
    primaryAction = { title: "Retry", onAction: () => void retry() };
  }
  await showFailureToast(error, { title, ...(primaryAction ? { primaryAction } : {}) });
}
