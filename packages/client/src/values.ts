/**
 * `@linkshort/client/values`: how a front end reads what a person typed or a page shows, by the
 * rules the client checks input with: an http(s) URL, the alias a short URL ends with, a QR code's
 * address, a colour picker's `#rrggbb`, and the API's `YYYY-MM-DD HH:MM:SS` timestamps both ways.
 * Plain functions with no state, so a second copy of this entry beside the client costs nothing.
 *
 * Every name here is public surface, listed by test/public-surface.test.ts.
 */
export { aliasFromShortUrl, isHttpUrl, qrCodeUrlKey } from "./addresses";
export { toRgbColour } from "./colour";
export { formatTimestamp, timestampIso, timestampParts } from "./resources/fields";
