import { PaginationSchema, QrCodeCreateSchema, QrCodeUpdateSchema, type PaginationInput, type QrCodeCreateInput, type QrCodeUpdateInput } from "../inputs";
import type { PagePromise } from "../pagination";
import {
  MessageSchema,
  QrCodeCreatedSchema,
  QrCodeSchema,
  QrCodeWithStatsSchema,
  type MessageResult,
  type QrCode,
  type QrCodeCreated,
  type QrCodeWithStats,
} from "../schemas";
import { validate } from "../validate";
import { pagedList, Resource, type RequestOptions } from "./shared";

const QrCodePage = pagedList(QrCodeSchema, "qrs");

export class QrCodesResource extends Resource {
  list(params?: PaginationInput, options?: RequestOptions): PagePromise<QrCode> {
    return this.pagedList("qrCodes.list", "/api/qr", QrCodePage, PaginationSchema, params, options);
  }

  /** One QR code and its scan statistics. */
  async get(id: number, options?: RequestOptions): Promise<QrCodeWithStats> {
    const checked = this.id("qrCodes.get", id);
    return this.core.request({ method: "GET", path: `/api/qr/${checked}` }, QrCodeWithStatsSchema, options);
  }

  /** Creates a QR code; `data` must suit its `type`. Never retried once it may have reached the server. */
  async create(input: QrCodeCreateInput, options?: RequestOptions): Promise<QrCodeCreated> {
    const body = validate(QrCodeCreateSchema, input, "qrCodes.create");
    return this.core.request({ method: "POST", path: "/api/qr/add", body }, QrCodeCreatedSchema, options);
  }

  async update(id: number, input: QrCodeUpdateInput, options?: RequestOptions): Promise<MessageResult> {
    const checked = this.idAndBody("qrCodes.update", id, QrCodeUpdateSchema, input);
    return this.core.request({ method: "PUT", path: `/api/qr/${checked.id}/update`, body: checked.body }, MessageSchema, options);
  }

  async delete(id: number, options?: RequestOptions): Promise<MessageResult> {
    const checked = this.id("qrCodes.delete", id);
    return this.core.request({ method: "DELETE", path: `/api/qr/${checked}/delete` }, MessageSchema, options);
  }
}
