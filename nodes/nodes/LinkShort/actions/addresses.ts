/**
 * Short URLs and aliases, trimmed in one pass. Addresses come from expressions, AI agents and
 * servers and can be megabytes long: a pattern such as /\/+$/ backtracks quadratically over a long
 * run of slashes, so none is used here.
 */

const SLASH = 47;

/** `text` without its trailing slashes. */
export function withoutTrailingSlashes(text: string): string {
	let end = text.length;
	while (end > 0 && text.charCodeAt(end - 1) === SLASH) end -= 1;
	return end === text.length ? text : text.slice(0, end);
}

/** The last path segment of an address, trailing slashes ignored: the alias of a short URL, the code of a QR code's URL. */
export function lastSegment(address: string): string {
	const trimmed = withoutTrailingSlashes(address);
	return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** An address compared without its scheme, trailing slashes or case: `https://go.example.com/launch/` is `http://go.example.com/launch`. */
export function comparableAddress(address: string): string {
	const trimmed = address.trim();
	const scheme = /^https?:\/\//i.exec(trimmed.slice(0, 8));
	return withoutTrailingSlashes(scheme ? trimmed.slice(scheme[0].length) : trimmed).toLowerCase();
}
