import { usePromise } from "@raycast/utils";
import { loadQrPicture } from "../api/qr-image";

/** The service's image of a QR code, or a labelled local drawing when it cannot be loaded. */
export function useQrPicture(link: string) {
  return usePromise(loadQrPicture, [link]);
}
