/**
 * A link's history as text for JSON stores: its channels as unsigned varints (times and counts as
 * differences from the checkpoint before), in base64url (Node's `Buffer`: the core runs on Node).
 */
import { checkpointCount, countAt, flagsAt, timeAt, type Channel } from "./checkpoints";

/** Base64url without padding; a length of 4n + 1 holds no whole byte in its last character. */
const BASE64URL = /^[A-Za-z0-9_-]*$/;

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
  return Buffer.from(bytes).toString("base64url");
}

/** The link a text of `encodeLink` holds; throws when the text is not one. */
export function decodeLink(text: string): EncodedLink {
  if (text.length % 4 === 1) throw new Error("history text has a stray character");
  // Buffer skips what is not base64url: such a text is refused here instead.
  if (!BASE64URL.test(text)) throw new Error("history text is not base64url");
  const reader = new Reader(Buffer.from(text, "base64url"));
  const clicks = readChannel(reader);
  const unique = readChannel(reader);
  if (!clicks || !reader.done) throw new Error("history text is not a link's history");
  return { clicks, unique };
}
