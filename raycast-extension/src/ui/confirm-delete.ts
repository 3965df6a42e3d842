import { Alert, confirmAlert, showToast, Toast } from "@raycast/api";
import { showFailure } from "./failure";

/**
 * Deletes after the user confirms, with a progress toast that ends in `deleted` or in the failure's
 * toast (titled `failure`, with `retry` as its action). Nothing is sent unless the user confirms.
 */
export async function confirmAndDelete(request: {
  title: string;
  message: string;
  deleted: string;
  failure: string;
  remove: () => Promise<unknown>;
  retry: () => unknown;
}): Promise<void> {
  const confirmed = await confirmAlert({
    title: request.title,
    message: request.message,
    primaryAction: { title: "Delete", style: Alert.ActionStyle.Destructive },
  });
  if (!confirmed) return;
  const toast = await showToast({ style: Toast.Style.Animated, title: "Deleting…" });
  try {
    await request.remove();
    toast.style = Toast.Style.Success;
    toast.title = request.deleted;
  } catch (error) {
    await toast.hide();
    await showFailure(error, request.failure, request.retry);
  }
}
