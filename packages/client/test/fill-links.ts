import { emptyStats, type Sandbox } from "@linkshort/sandbox";
import { linkDefaults } from "../../sandbox/src/model/link-record";
import type { QrRecord } from "../../sandbox/src/persistence/state";

/**
 * Gives the sandbox's user `count` links straight in its store (a test or bench setup, not an API
 * load), one a second from 2026-01-01: alias `fill<i>`, the oldest titled "The aardvark page",
 * with `clicksOf(i)` clicks.
 */
export function fillLinks(sandbox: Sandbox, count: number, clicksOf: (index: number) => number = () => 0): void {
  const start = Date.UTC(2026, 0, 1);
  for (let i = 0; i < count; i += 1) {
    sandbox.store.state.links.push({
      id: sandbox.store.nextId("links"),
      userId: 2,
      alias: `fill${i}`,
      domain: null,
      url: `https://example.com/fill/${i}`,
      ...linkDefaults(),
      metatitle: i === 0 ? "The aardvark page" : `Fill ${i}`,
      date: new Date(start + i * 1000).toISOString().slice(0, 19).replace("T", " "),
      stats: { ...emptyStats(), clicks: clicksOf(i) },
    });
  }
}

export interface LinksToAdd {
  /** The first link's date (epoch ms). */
  from: number;
  /** How many links share each second: a bulk import makes many within one. */
  perSecond: number;
  /** Each link's alias is `<name><id>`, its long URL `https://example.com/<name>/<id>`. */
  name: string;
  /** The title of the link made `index`-th; untitled without it. */
  title?: (index: number) => string;
}

/**
 * Gives the sandbox's user `count` links made through its store as a create makes them (lookups
 * and journal kept), `perSecond` a second from `from`; answers their ids, oldest first.
 */
export function addLinks(sandbox: Sandbox, count: number, { from, perSecond, name, title }: LinksToAdd): number[] {
  const made: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = sandbox.store.nextId("links");
    sandbox.store.addLink({
      id,
      userId: 2,
      alias: `${name}${id}`,
      domain: null,
      url: `https://example.com/${name}/${id}`,
      ...linkDefaults(),
      ...(title ? { metatitle: title(i) } : {}),
      date: new Date(from + Math.floor(i / perSecond) * 1000).toISOString().slice(0, 19).replace("T", " "),
      stats: emptyStats(),
    });
    made.push(id);
  }
  return made;
}

/** A QR code of the sandbox's user pointing at `data`, as the store keeps one (black on white, no logo). */
function qrCodeRecord(id: number, code: number, fields: { data: string; name: string; date: string; scans: number }): QrRecord {
  return {
    id,
    userId: 2,
    code: code.toString(16),
    type: "link",
    data: fields.data,
    background: "rgb(255,255,255)",
    foreground: "rgb(0,0,0)",
    logo: null,
    name: fields.name,
    date: fields.date,
    stats: { ...emptyStats(), clicks: fields.scans },
  };
}

/**
 * Gives the sandbox's user `count` QR codes straight in its store, as `fillLinks` gives links: one a
 * second from 2026-01-01, named `QR <i>`, pointing at `https://example.com/qr/<i>`, with `scansOf(i)` scans.
 */
export function fillQrCodes(sandbox: Sandbox, count: number, scansOf: (index: number) => number = () => 0): void {
  const start = Date.UTC(2026, 0, 1);
  for (let i = 0; i < count; i += 1) {
    const date = new Date(start + i * 1000).toISOString().slice(0, 19).replace("T", " ");
    sandbox.store.state.qrs.push(
      qrCodeRecord(sandbox.store.nextId("qrs"), 0x100000 + i, { data: `https://example.com/qr/${i}`, name: `QR ${i}`, date, scans: scansOf(i) }),
    );
  }
}

/**
 * Gives the sandbox's user `count` QR codes straight in its store, `perSecond` a second from `from`,
 * as `addLinks` adds links: each pointing at `https://example.com/<name>/<id>`, named `title(i)`
 * (by default `QR <id>`), with no scans; answers their ids, oldest first.
 */
export function addQrCodes(sandbox: Sandbox, count: number, { from, perSecond, name, title }: LinksToAdd): number[] {
  const made: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = sandbox.store.nextId("qrs");
    const date = new Date(from + Math.floor(i / perSecond) * 1000).toISOString().slice(0, 19).replace("T", " ");
    sandbox.store.state.qrs.push(
      qrCodeRecord(id, 0x200000 + id, { data: `https://example.com/${name}/${id}`, name: title ? title(i) : `QR ${id}`, date, scans: 0 }),
    );
    made.push(id);
  }
  return made;
}
