/** A write the store refused because another replica holds what it needs (the sweep's lease). Apart from postgres.ts, so that checking for it loads no pg. */
export class StoreConflictError extends Error {
  override name = "StoreConflictError";
}
