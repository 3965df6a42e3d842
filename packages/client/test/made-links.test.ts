/**
 * `MadeLinks`, the record of the links a host made that n8n keeps in a workflow's static data: its
 * bound, what it keeps of a password, and how it merges what runs saved.
 */
import { ForgottenLinks, MadeLinks, MAX_MADE_LINKS } from "../src/core";
import { madeLinkEntry } from "../src/link-index/made-links";
import { hiddenOptionsKey } from "../src/link-index/reuse";

const plain = hiddenOptionsKey({});
const locked = hiddenOptionsKey({ password: "x" });

describe("MadeLinks", () => {
  it("keeps a password only as a salted hash: the same password proves the link, another does not, and no two entries are alike", async () => {
    const record = new MadeLinks();
    const [first, second] = await Promise.all([madeLinkEntry(locked, "correct horse"), madeLinkEntry(locked, "correct horse")]);
    expect(first).not.toBe(second);
    record.record(7, first);
    expect(JSON.stringify(record.state())).not.toContain("correct horse");
    expect(record.madeWithOptions(7, locked)).toBe(true);
    expect(record.madeWithOptions(7, plain)).toBe(false);
    expect(await record.madeWithPassword(7, "correct horse")).toBe(true);
    expect(await record.madeWithPassword(7, "correct horsf")).toBe(false);
    expect(await record.madeWithPassword(8, "correct horse")).toBe(false);
  });

  it(`keeps the newest ${MAX_MADE_LINKS.toLocaleString("en")} links, under 1 MB of JSON when every one has a password`, async () => {
    const entry = await madeLinkEntry(locked, "secret");
    const links: Record<string, string> = {};
    for (let id = 1_000_000; id <= 1_000_000 + MAX_MADE_LINKS; id += 1) links[String(id)] = entry;
    const record = new MadeLinks();
    record.merge({ version: 1, links });
    expect(record.size).toBe(MAX_MADE_LINKS);
    expect(record.has(1_000_000)).toBe(false);
    expect(record.has(1_000_000 + MAX_MADE_LINKS)).toBe(true);
    expect(JSON.stringify(record.state()).length).toBeLessThan(1_000_000);
  });

  it("finds a link by what was asked (newest first, same options only); entries saved before that digest was kept still load and prove their options", async () => {
    const asked = JSON.stringify(["https://example.com/a", "a", "linkshort.example", "", ""]);
    const record = new MadeLinks();
    record.record(5, await madeLinkEntry(plain, undefined, asked));
    record.record(9, await madeLinkEntry(plain, undefined, asked));
    record.record(12, await madeLinkEntry(locked, "secret", asked));
    expect(record.madeAsAsked(asked, plain)).toBe(9);
    expect(record.madeAsAsked(asked, locked)).toBe(12);
    expect(record.madeAsAsked(asked, hiddenOptionsKey({ type: "frame" }))).toBeUndefined();
    expect(record.madeWhenAsked(asked)).toBe(true);
    record.forget(9);
    expect(record.madeAsAsked(asked, plain)).toBe(5);
    expect(await record.madeWithPassword(12, "secret")).toBe(true);

    // A record saved before: entries without the digest of what was asked.
    const old = new MadeLinks();
    old.merge(JSON.parse(JSON.stringify({ version: 1, links: { "3": await madeLinkEntry(plain, undefined), "4": await madeLinkEntry(locked, "old") } })));
    expect(old.size).toBe(2);
    expect(old.madeWithOptions(3, plain)).toBe(true);
    expect(await old.madeWithPassword(4, "old")).toBe(true);
    expect(old.madeAsAsked(asked, plain)).toBeUndefined();
  });

  it(`with the digest of what was asked, ${MAX_MADE_LINKS.toLocaleString("en")} links with passwords stay under 1 MB of JSON`, async () => {
    const entry = await madeLinkEntry(locked, "secret", JSON.stringify(["https://example.com/a", null, "linkshort.example", "", ""]));
    const record = new MadeLinks();
    for (let id = 1_000_000; id < 1_000_000 + MAX_MADE_LINKS; id += 1) record.record(id, entry);
    expect(JSON.stringify(record.state()).length).toBeLessThan(1_000_000);
  });

  it("merges what another execution saved, except links changed or deleted here since; a damaged record counts as empty", async () => {
    const forgotten = new ForgottenLinks();
    const record = new MadeLinks(forgotten);
    const entry = await madeLinkEntry(plain, undefined);
    record.record(1, entry);
    // Another execution saved 2 and 3, and still 1; link 3 was updated here after it loaded them.
    record.forget(3);
    expect(record.merge({ version: 1, links: { "1": entry, "2": entry, "3": entry } })).toBe(true);
    expect([record.has(1), record.has(2), record.has(3)]).toEqual([true, true, false]);
    expect(record.merge(record.state())).toBe(false);
    // Another record of the same account in this program is told too.
    const other = new MadeLinks(forgotten);
    other.merge({ version: 1, links: { "3": entry } });
    expect(other.has(3)).toBe(false);

    const fresh = new MadeLinks();
    for (const damaged of [
      null,
      "x",
      { version: 2, links: { "1": entry } },
      { version: 1, links: { "-1": entry, "1.5": entry, "2": "not an entry", "3": 4 } },
    ]) {
      fresh.merge(damaged);
      expect(fresh.size).toBe(0);
    }
  });
});
