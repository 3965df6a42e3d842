/**
 * The confirmation update_links and delete_links hand out: which links, what each looked like and
 * which arguments, signed with the key of the request state. Three kinds: a preview's, which the
 * person is asked about; a run's "go on" for the links it left, which the person already said yes
 * to (it binds only links of that preview, as the preview saw them, with the same arguments); and
 * "reading", a preview not read to its end before its call's deadline (the links read so far, and
 * the ids left to read), which changes nothing and asks nothing.
 *
 * Written `<kind letter><links>~<signed state>`: the kind and how many links are readable before it
 * is opened, for the question (the tool's `confirmation` is synchronous); the run opens the signed
 * state and refuses one whose readable part says anything else.
 */
import { createHash } from "node:crypto";
import { ValidationError } from "@linkshort/client";
import { canonicalJson, type ToolContext } from "./define";

export type SealKind = "preview" | "go on" | "reading";

const LETTER: Record<SealKind, string> = { preview: "p", "go on": "g", reading: "r" };
const KIND_OF: Record<string, SealKind> = { p: "preview", g: "go on", r: "reading" };

/** A link as a seal binds it: its id and 4 bytes of SHA-256 of what the preview saw of it. */
export interface BoundLink {
  id: number;
  digest: Uint8Array;
}

/** What an opened seal binds. */
export interface OpenedSeal {
  kind: SealKind;
  links: BoundLink[];
  /** How many links the preview bound, this call's and earlier calls' together (progress counts against it). */
  total: number;
  /** "reading": the ids of the preview not read yet. */
  unread: number[];
}

/** 4 bytes of SHA-256 of the values a link is compared by, in a fixed order. */
export const digestOf = (values: readonly unknown[]) => createHash("sha256").update(JSON.stringify(values)).digest().subarray(0, 4);

/** The call's other arguments and the account they act on (a person's key, with --sign-in): a confirmation holds for that account only. */
const argumentsDigest = (args: object, context: ToolContext) =>
  createHash("sha256")
    .update(canonicalJson([context.client.accountId, args]))
    .digest()
    .subarray(0, 12)
    .toString("base64url");

/** Each id (as a zigzag varint after the one before) and its digest. */
function packed(links: readonly BoundLink[]): string {
  const bytes: number[] = [];
  let previous = 0;
  for (const { id, digest } of links) {
    const step = id - previous;
    previous = id;
    let zigzag = step >= 0 ? step * 2 : -step * 2 - 1;
    while (zigzag >= 0x80) {
      bytes.push(zigzag % 0x80 | 0x80);
      zigzag = Math.floor(zigzag / 0x80);
    }
    bytes.push(zigzag, ...digest);
  }
  return Buffer.from(bytes).toString("base64url");
}

function unpacked(text: string): BoundLink[] | undefined {
  const bytes = Buffer.from(text, "base64url");
  const links: BoundLink[] = [];
  let previous = 0;
  let at = 0;
  while (at < bytes.length) {
    let zigzag = 0;
    let scale = 1;
    while (at < bytes.length && bytes[at]! >= 0x80) {
      zigzag += (bytes[at]! - 0x80) * scale;
      scale *= 0x80;
      at += 1;
    }
    if (at + 5 > bytes.length || scale > 0x80 ** 7) return undefined;
    zigzag += bytes[at]! * scale;
    previous += zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
    links.push({ id: previous, digest: bytes.subarray(at + 1, at + 5) });
    at += 5;
  }
  return links;
}

/** What a seal names: this tool's preview or go-on, never the question of a delete (whose arguments are JSON). */
const sealedFor = (tool: string, kind: SealKind) => `${tool} ${kind}`;

/** The kind and the number of links a confirmation says it holds, read without opening it (for the question); undefined when it is not written as this file writes them. */
export function readableHeader(confirmation: string): { kind: SealKind; links: number } | undefined {
  const match = /^([pgr])(\d{1,3})~/.exec(confirmation);
  return match ? { kind: KIND_OF[match[1]!]!, links: Number(match[2]) } : undefined;
}

const NO_DIGEST = new Uint8Array(4);

/** A confirmation of `links` for this tool and these arguments, signed (with the ids left to read, for "reading"). */
export async function seal(
  tool: string,
  kind: SealKind,
  args: object,
  links: readonly BoundLink[],
  total: number,
  context: ToolContext,
  unread: readonly number[] = [],
): Promise<string> {
  const toRead = unread.map((id) => ({ id, digest: NO_DIGEST }));
  const state = await context.seal.mint({
    tool: sealedFor(tool, kind),
    arguments: `${argumentsDigest(args, context)}.${total}.${packed(links)}.${packed(toRead)}`,
  });
  return `${LETTER[kind]}${links.length}~${state}`;
}

const refusedConfirmation = (tool: string, why: string) =>
  new ValidationError([{ field: "confirmation", message: `${why}: call ${tool} without confirmation for a new preview. Nothing was changed` }], tool);

/**
 * The links a confirmation binds, refused (as the field `confirmation`, before any request) unless
 * this server sealed it, of one of `kinds`, for this tool and these very arguments, as its readable
 * part says.
 */
export async function openSeal(tool: string, args: object, confirmation: string, kinds: readonly SealKind[], context: ToolContext): Promise<OpenedSeal> {
  const header = readableHeader(confirmation);
  const sealed = header && (await context.seal.open(confirmation.slice(confirmation.indexOf("~") + 1)).catch(() => undefined));
  if (!header || sealed === undefined || sealed.tool !== sealedFor(tool, header.kind))
    throw refusedConfirmation(tool, `is not a preview of ${tool} this server made, or it has expired (a preview holds for 10 minutes)`);
  if (!kinds.includes(header.kind))
    throw refusedConfirmation(
      tool,
      "is a preview not read to its end: call again with it (and the same arguments) until the preview answers the confirmation to show the user",
    );
  const [digest, total, links, toRead] = sealed.arguments.split(".");
  const bound = links === undefined ? undefined : unpacked(links);
  const unread = toRead === undefined ? undefined : unpacked(toRead);
  if (digest !== argumentsDigest(args, context) || bound === undefined || unread === undefined || bound.length !== header.links) {
    throw refusedConfirmation(tool, "was made for another preview (other links or other changes): a confirmation holds only with the arguments of its preview");
  }
  return { kind: header.kind, links: bound, total: Number(total), unread: unread.map((link) => link.id) };
}
