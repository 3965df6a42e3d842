/**
 * Which account a client speaks for, one rule for every registry and store: the base URL as the
 * client sends requests to it (scheme and host in lower case, no default port, no trailing slash
 * or `/api`), and a digest of the API key. The key itself is never part of it.
 */
import { trimTrailingSlashes } from "./addresses";

/** A base URL as accounts are told apart: `https://X/`, `https://x` and `https://x/api` are one service. */
export function accountBaseUrl(baseUrl: string): string {
  const trimmed = trimTrailingSlashes(baseUrl.trim());
  try {
    const url = new URL(trimmed);
    const path = trimTrailingSlashes(url.pathname).replace(/\/api$/i, "");
    return `${url.protocol}//${url.host}${path}`;
  } catch {
    return trimmed.toLowerCase();
  }
}

/** The account of a base URL and API key: `<base URL> <first 32 hex digits of the key's SHA-256>`. */
export function accountId(baseUrl: string, apiKey: string): string {
  return `${accountBaseUrl(baseUrl)} ${sha256Hex(apiKey).slice(0, 32)}`;
}

const ROUND_CONSTANTS = new Uint32Array(64);
const INITIAL_HASH = new Uint32Array(8);

/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes, and the square roots of the first 8 (FIPS 180-4). */
(function computeConstants() {
  const primes: number[] = [];
  for (let candidate = 2; primes.length < 64; candidate += 1) if (primes.every((prime) => candidate % prime !== 0)) primes.push(candidate);
  const fraction = (value: number) => ((value - Math.floor(value)) * 2 ** 32) >>> 0;
  primes.forEach((prime, index) => {
    ROUND_CONSTANTS[index] = fraction(Math.cbrt(prime));
    if (index < 8) INITIAL_HASH[index] = fraction(Math.sqrt(prime));
  });
})();

const rotateRight = (value: number, bits: number) => (value >>> bits) | (value << (32 - bits));

/** SHA-256 of a text's UTF-8 bytes, in hex: the core client runs where no crypto module may be imported (n8n's node code). */
export function sha256Hex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const blocks = Math.ceil((bytes.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor((bytes.length * 8) / 2 ** 32));
  view.setUint32(padded.length - 4, (bytes.length * 8) >>> 0);
  const hash = INITIAL_HASH.slice();
  const words = new Uint32Array(64);
  for (let block = 0; block < blocks; block += 1) {
    for (let i = 0; i < 16; i += 1) words[i] = view.getUint32(block * 64 + i * 4);
    for (let i = 16; i < 64; i += 1) {
      const w15 = words[i - 15]!;
      const w2 = words[i - 2]!;
      const s0 = rotateRight(w15, 7) ^ rotateRight(w15, 18) ^ (w15 >>> 3);
      const s1 = rotateRight(w2, 17) ^ rotateRight(w2, 19) ^ (w2 >>> 10);
      words[i] = (words[i - 16]! + s0 + words[i - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = hash as unknown as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i += 1) {
      const choose = (e & f) ^ (~e & g);
      const temp1 = (h + (rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)) + choose + ROUND_CONSTANTS[i]! + words[i]!) >>> 0;
      const majority = (a & b) ^ (a & c) ^ (b & c);
      const temp2 = ((rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)) + majority) >>> 0;
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + temp1) >>> 0, c, b, a, (temp1 + temp2) >>> 0];
    }
    [a, b, c, d, e, f, g, h].forEach((value, index) => (hash[index] = (hash[index]! + value) >>> 0));
  }
  return Array.from(hash, (word) => word.toString(16).padStart(8, "0")).join("");
}
