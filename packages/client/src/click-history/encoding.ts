/**
 * A link's history as text for JSON stores: its channels as unsigned varints (times and counts as
 * differences from the checkpoint before), in base64url. Written out here: the core client runs
 * where neither `Buffer` nor `btoa` may be used (n8n's node code).
 */
import { checkpointCount, countAt, flagsAt, timeAt, type Channel } from "./checkpoints";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** Two characters for each 12 bits: a long history is written in one pass of lookups. */
const PAIRS = Array.from({ length: 4096 }, (_, value) => ALPHABET[value >> 6]! + ALPHABET[value & 63]!);
const VALUE_OF = new Int16Array(128).fill(-1);
for (let index = 0; index < ALPHABET.length; index += 1) VALUE_OF[ALPHABET.charCodeAt(index)] = index;

function writeVarint(bytes: number[], value: number): void {
  let rest = value;
  while (rest >= 128) {
    bytes.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
}

class Reader {
  #at = 0;
  constructor(readonly bytes: Uint8Array) {}

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.#at >= this.bytes.length || scale > 2 ** 49) throw new Error("history ends in the middle of a number");
      const byte = this.bytes[this.#at++]!;
      value += (byte % 128) * scale;
      if (byte < 128) return value;
      scale *= 128;
    }
  }

  get done(): boolean {
    return this.#at >= this.bytes.length;
  }
}

function writeChannel(bytes: number[], channel: Channel | undefined): void {
  const count = channel ? checkpointCount(channel) : 0;
  writeVarint(bytes, count);
  if (!channel || count === 0) return;
  writeVarint(bytes, channel.raw);
  for (let index = 0; index < count; index += 1) {
    const at = timeAt(channel, index);
    const counted = countAt(channel, index);
    writeVarint(bytes, index === 0 ? at : at - timeAt(channel, index - 1));
    writeVarint(bytes, (index === 0 ? counted : counted - countAt(channel, index - 1)) * 4 + flagsAt(channel, index));
  }
}

function readChannel(reader: Reader): Channel | undefined {
  const count = reader.varint();
  if (count === 0) return undefined;
  const channel: Channel = { raw: reader.varint(), points: [] };
  let at = 0;
  let counted = 0;
  for (let index = 0; index < count; index += 1) {
    const step = reader.varint();
    if (index > 0 && step === 0) throw new Error("history has two checkpoints at one time");
    at += step;
    const word = reader.varint();
    counted += Math.floor(word / 4);
    channel.points.push(at, counted * 4 + (word % 4));
  }
  return channel;
}

export interface EncodedLink {
  clicks: Channel;
  unique: Channel | undefined;
}

export function encodeLink(link: EncodedLink): string {
  const bytes: number[] = [];
  writeChannel(bytes, link.clicks);
  writeChannel(bytes, link.unique);
  const chunks: string[] = [];
  const whole = bytes.length - (bytes.length % 3);
  for (let index = 0; index < whole; index += 3) {
    const triple = (bytes[index]! << 16) | (bytes[index + 1]! << 8) | bytes[index + 2]!;
    chunks.push(PAIRS[triple >> 12]! + PAIRS[triple & 4095]!);
  }
  let text = chunks.join("");
  const [a, b] = [bytes[whole], bytes[whole + 1]];
  if (a !== undefined) {
    text += ALPHABET[a >> 2]! + ALPHABET[((a & 3) << 4) | ((b ?? 0) >> 4)]!;
    if (b !== undefined) text += ALPHABET[(b & 15) << 2]!;
  }
  return text;
}

/** The link a text of `encodeLink` holds; throws when the text is not one. */
export function decodeLink(text: string): EncodedLink {
  if (text.length % 4 === 1) throw new Error("history text has a stray character");
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let byte = 0;
  for (let index = 0; index < text.length; index += 4) {
    const values: number[] = [];
    for (let offset = index; offset < Math.min(index + 4, text.length); offset += 1) {
      const value = VALUE_OF[text.charCodeAt(offset)] ?? -1;
      if (value < 0) throw new Error("history text is not base64url");
      values.push(value);
    }
    const [a, b, c, d] = values as [number, number, number | undefined, number | undefined];
    bytes[byte++] = (a << 2) | (b >> 4);
    if (c !== undefined) bytes[byte++] = ((b & 15) << 4) | (c >> 2);
    if (d !== undefined) bytes[byte++] = ((c! & 3) << 6) | d;
  }
  const reader = new Reader(bytes);
  const clicks = readChannel(reader);
  const unique = readChannel(reader);
  if (!clicks || !reader.done) throw new Error("history text is not a link's history");
  return { clicks, unique };
}
