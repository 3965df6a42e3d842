/** The client for Node: undici transport and Node timers by default. */
import { LinkShortClient as CoreLinkShortClient } from "./client";
import type { CoreClientOptions } from "./internal/options";
import { nodeSleep, undiciTransport } from "./undici-transport";

export * from "./core";
export { undiciTransport } from "./undici-transport";
export { FileIndexStore, type FileIndexStoreOptions } from "./link-index/file-store";
export { FileClickHistoryStore } from "./click-history/file-store";

export type LinkShortClientOptions = Omit<CoreClientOptions, "transport" | "sleep"> & Partial<Pick<CoreClientOptions, "transport" | "sleep">>;

export class LinkShortClient extends CoreLinkShortClient {
  constructor(options: LinkShortClientOptions) {
    super({ ...options, transport: options.transport ?? undiciTransport(), sleep: options.sleep ?? nodeSleep });
  }
}
