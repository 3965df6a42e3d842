/**
 * Who a request comes from, as the sign-in's bounds count it (failed key checks, registrations,
 * first fetches of client metadata documents). The socket's peer, unless it is a proxy the operator
 * trusts (`--trusted-proxy`): then the right-most hop of X-Forwarded-For that is no trusted proxy
 * (each proxy appends the address it was reached from, so hops left of it are the client's say).
 * Without trusted proxies the header is ignored: anyone can write it.
 */
import { BlockList, isIP } from "node:net";

/** An address as Node and the header write it, read: the IP without brackets, port or zone; undefined when it is none. */
function plainAddress(text: string): string | undefined {
  let address = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(address)) address = address.slice(0, address.indexOf(":"));
  address = address.split("%")[0]!.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) address = mapped[1]!;
  return isIP(address) === 0 ? undefined : address;
}

/**
 * The one rule of what counts as one client's address in every bound: an IPv4 address (an
 * IPv4-mapped one included) as it is; an IPv6 address by its /64, one machine's usual share, in
 * which it may pick a fresh address for every request.
 */
export function addressGroup(peer: string): string {
  const address = plainAddress(peer) ?? peer.toLowerCase();
  if (!address.includes(":")) return address;
  const [head, tail] = address.split("::").map((part) => (part === "" ? [] : part.split(":")));
  const groups = tail === undefined ? head! : [...head!, ...Array<string>(Math.max(0, 8 - head!.length - tail.length)).fill("0"), ...tail];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** The proxies whose X-Forwarded-For is believed: addresses and CIDR ranges, IPv4 and IPv6. */
export class TrustedProxies {
  readonly #list = new BlockList();

  /** From entries such as `172.30.53.2`, `10.0.0.0/8`, `fd00::/8`; a RangeError names the first that is none. */
  constructor(readonly entries: readonly string[]) {
    for (const entry of entries) {
      const [text, prefixText, extra] = entry.trim().split("/");
      const address = plainAddress(text ?? "");
      const family = address === undefined ? 0 : isIP(address);
      const prefix = prefixText === undefined ? (family === 4 ? 32 : 128) : Number(prefixText);
      if (family === 0 || extra !== undefined || !/^\d*$/.test(prefixText ?? "") || !(prefix >= 0 && prefix <= (family === 4 ? 32 : 128))) {
        throw new RangeError(`"${entry.slice(0, 100)}" is not an IP address or a CIDR range (e.g. 172.30.53.2 or 10.0.0.0/8)`);
      }
      this.#list.addSubnet(address!, prefix, family === 4 ? "ipv4" : "ipv6");
    }
  }

  /** Whether the address is one of the trusted proxies'. */
  has(address: string): boolean {
    const plain = plainAddress(address);
    return plain !== undefined && this.#list.check(plain, isIP(plain) === 4 ? "ipv4" : "ipv6");
  }
}

/**
 * The client's address: the peer's, or behind a trusted proxy the right-most hop of X-Forwarded-For
 * that is no trusted proxy (all of them trusted: the left-most). A hop that is no address ends the
 * walk at the last one read (a trusted proxy's), so garbage never names a fresh client.
 */
export function clientAddress(peer: string, forwardedFor: string | string[] | undefined, trusted: TrustedProxies | undefined): string {
  if (trusted === undefined || forwardedFor === undefined || !trusted.has(peer)) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor).split(",");
  let client = peer;
  for (let at = hops.length - 1; at >= 0; at -= 1) {
    const hop = plainAddress(hops[at]!);
    if (hop === undefined) break;
    client = hop;
    if (!trusted.has(hop)) break;
  }
  return client;
}
