/**
 * Removing an API key from text bound for a message, a log or an output, in every form a server,
 * a proxy or a debug page may echo it in. One regular expression per key, built once; it has no
 * nested quantifier that can backtrack (its only nesting is a chain of optional single characters),
 * so it runs in time linear in the text.
 */

const REDACTED = "[redacted]";
/** A key cut to this many characters or more still counts as the key (servers log a key's first 16 to 24). */
const MIN_KEY_FRAGMENT = 16;

const escapeForRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Raw, JSON-escaped (PHP's `\/` and `\u00e9` too), URL- and form-encoded. */
function encodedForms(key: string): string[] {
  const json = JSON.stringify(key).slice(1, -1);
  const unicodeEscaped = (text: string) => text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const phpSlashes = (text: string) => text.replace(/\//g, "\\/");
  const encoded = [encodeURIComponent(key), encodeURI(key), new URLSearchParams({ k: key }).toString().slice(2)];
  const escaped = [unicodeEscaped(json), unicodeEscaped(phpSlashes(json))];
  return [key, json, phpSlashes(key), phpSlashes(json), ...escaped, ...encoded];
}

/**
 * The parts of the key's base64 that do not depend on what surrounds it, at each of the three
 * alignments it can have inside a longer encoded text (an `Authorization: Bearer <key>` header, say),
 * in standard and URL-safe alphabets.
 */
function base64Forms(key: string): string[] {
  const bytes = new TextEncoder().encode(key);
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const encoded = Buffer.from(padded).toString("base64");
    // A character holds bits [6i, 6i + 6): keep those made of the key's bits alone.
    const first = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const core = encoded.slice(first, end);
    if (core.length >= MIN_KEY_FRAGMENT) forms.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return forms;
}

/** The key or any prefix of it at least MIN_KEY_FRAGMENT long: `abc…p(?:q(?:r(?:s)?)?)?`, greedy and linear. */
function prefixPattern(key: string): string {
  const characters = [...key];
  const least = Math.min(MIN_KEY_FRAGMENT, characters.length);
  const head = characters.slice(0, least).map(escapeForRegExp).join("");
  const tail = characters.slice(least).reduceRight((rest, character) => `(?:${escapeForRegExp(character)}${rest})?`, "");
  return head + tail;
}

/** `&#115;`, `&#x73;` and the five XML entities, read as the characters they stand for. */
const CHARACTER_REFERENCE = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|lt|gt|quot|apos));/gi;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeCharacterReferences(text: string): string {
  return text.replace(CHARACTER_REFERENCE, (whole, decimal?: string, hex?: string, name?: string) => {
    const code = decimal !== undefined ? Number(decimal) : hex !== undefined ? Number.parseInt(hex, 16) : undefined;
    if (code === undefined) return NAMED[name!.toLowerCase()] ?? whole;
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** A function that removes `key` from any text: every encoding above, in any letter case, cut to 16 characters or more. */
export function keyRedactor(key: string): (text: string) => string {
  // Longer whole forms first: at one position the first alternative that matches wins.
  const whole = [...new Set([...encodedForms(key), ...base64Forms(key)])].sort((a, b) => b.length - a.length).map(escapeForRegExp);
  const pattern = new RegExp([...whole, prefixPattern(key)].join("|"), "gi");
  return (text: string) => {
    const redacted = text.replace(pattern, REDACTED);
    if (!redacted.includes("&#") && !redacted.includes("&amp;")) return redacted;
    // Character references are read only where they hide the key: other text keeps them as they were.
    const decoded = decodeCharacterReferences(redacted);
    const decodedRedacted = decoded.replace(pattern, REDACTED);
    return decodedRedacted === decoded ? redacted : decodedRedacted;
  };
}
