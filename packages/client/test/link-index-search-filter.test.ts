/**
 * The index's search through its trigram filter answers exactly what reading every link answers:
 * random links and queries (a fixed seed), across updates and deletions, with short words, mixed
 * case and text beyond ASCII.
 */
import { seededRandom } from "@linkshort/sandbox";
import { LinkTable } from "../src/link-index/link-table";
import { tableQuery } from "../src/link-index/search";
import type { StoredLink } from "../src/link-index/store";
import { foldUnit, TrigramFilter } from "../src/link-index/trigram-filter";

/** Pieces of text chosen for the ways case folding differs: Kelvin sign, dotted and dotless i, sigmas, sharp s, micro sign, titlecase digraphs, astral letters with case. */
const PIECES = [
  "a",
  "B",
  "ab",
  "Off",
  "offer",
  "OFFER",
  "fer",
  "pricing",
  "Pri",
  "éx",
  "É",
  "ß",
  "SS",
  "ss",
  "İ",
  "i",
  "ı",
  "I",
  "\u212a",
  "k",
  "K",
  "Σ",
  "σ",
  "ς",
  "µ",
  "Μ",
  "μ",
  "ǅ",
  "ǆ",
  "Ǆ",
  "😀",
  "𐐀",
  "𐐨",
  "-",
  "/",
  ".",
  "_",
  "日本",
  "語",
  "x",
  "yz",
  "0",
  "12",
  "345",
];
const PREFIXES = ["https://s.example/", "https://S.Example/Go/", "http://x.y/l/"];

function generator(seed: number) {
  const random = seededRandom(seed);
  const below = (count: number) => Math.floor(random() * count);
  const pick = <T>(items: readonly T[]) => items[below(items.length)]!;
  const text = (most: number, spaces = true) => Array.from({ length: below(most + 1) }, () => (spaces && below(5) === 0 ? " " : pick(PIECES))).join("");
  const link = (id: number, seen: number): StoredLink => {
    const alias = below(10) === 0 ? "" : text(4, false);
    const shorturl = below(4) === 0 ? `https://other.example/${text(3, false)}/${alias}` : `${pick(PREFIXES)}${alias}`;
    return {
      id,
      alias,
      shorturl,
      longurl: `https://${text(2, false)}.example/${text(6, false)}`,
      title: text(6),
      description: below(3) === 0 ? "" : text(8),
      date: below(5) === 0 ? null : `2026-0${1 + below(9)}-1${below(10)} 10:00:0${below(10)}`,
      clicks: below(20),
      seen,
    };
  };
  const changeCase = (value: string) => (below(3) === 0 ? value.toUpperCase() : below(2) === 0 ? value.toLowerCase() : value);
  const query = (links: StoredLink[]): string => {
    const known = links.length > 0 ? pick(links) : undefined;
    const kind = below(9);
    if (!known || kind === 0) return text(3);
    if (kind === 1) return changeCase(known.alias);
    if (kind === 2) return changeCase(`${known.shorturl}${below(2) === 0 ? "/" : ""}`);
    if (kind === 3) return changeCase(known.longurl);
    if (kind === 4) return pick(["", " ", "/", "//", "a", "ab", "of", `/${known.alias}`, ` /${known.alias}`]);
    const field = pick([known.alias, known.title, known.longurl, known.description, known.shorturl]);
    const start = below(field.length + 1);
    const part = changeCase(field.slice(start, start + 1 + below(8)));
    return kind === 5 ? `${part} ${text(1, false)}` : part;
  };
  return { below, link, query };
}

function expectSameSearches(filtered: LinkTable, scanned: LinkTable, queries: string[]) {
  for (const text of queries) {
    for (const [limit, byClicks] of [
      [3, false],
      [50, false],
      [5, true],
    ] as const) {
      const query = tableQuery(text);
      expect({ text, limit, byClicks, ...filtered.search(query, limit, byClicks) }).toEqual({
        text,
        limit,
        byClicks,
        ...scanned.search(query, limit, byClicks),
      });
    }
  }
}

describe("search through the trigram filter", () => {
  it("answers what reading every link answers: random links and queries over puts, updates, drops and the filter's learning (seeded)", () => {
    const { below, link, query } = generator(46);
    const filtered = new LinkTable();
    const scanned = new LinkTable({ filtered: false });
    const links = new Map<number, StoredLink>();
    let compared = 0;
    // Past 1,024 links the filter learns which trigrams most links hold ("https", ".example/") and files every link again without them.
    for (let step = 0; step < 2_300; step += 1) {
      const action = step < 1_100 ? 0 : below(10);
      if (action < 6) {
        const updated = link(step < 1_100 ? step + 1 : below(1_600) + 1, below(3));
        links.set(updated.id, updated);
        filtered.put(updated);
        scanned.put(updated);
      } else if (action < 8 && links.size > 0) {
        const id = [...links.keys()][below(links.size)]!;
        links.delete(id);
        expect(filtered.drop(id)).toBe(scanned.drop(id));
      } else if (action === 8 && links.size > 0) {
        // Clicks alone changed: the text, and so the filter, stays.
        const known = [...links.values()][below(links.size)]!;
        const clicked = { ...known, clicks: known.clicks + 1 };
        links.set(clicked.id, clicked);
        filtered.put(clicked);
        scanned.put(clicked);
      } else {
        const queries = Array.from({ length: 12 }, () => query([...links.values()]));
        expectSameSearches(filtered, scanned, queries);
        compared += queries.length;
        for (const known of [...links.values()].slice(0, 5)) {
          expect(filtered.findByLongUrl(known.longurl, () => true)).toEqual(scanned.findByLongUrl(known.longurl, () => true));
        }
      }
    }
    expect(compared).toBeGreaterThan(1_000);
    expect(filtered.all()).toEqual(scanned.all());
  }, 90_000);

  it("finds what short words, mixed case and text beyond ASCII match, as reading every link does", () => {
    const filtered = new LinkTable();
    const scanned = new LinkTable({ filtered: false });
    const texts = ["Ünïcödé Straße", "KELVIN \u212a sign", "ΣΊΣΥΦΟΣ ὀδυσσεύς", "İstanbul ıi", "emoji 😀 link", "𐐀𐐨 deseret", "ǅungla", "µ-micro Μ", "go"];
    texts.forEach((title, at) => {
      const link = {
        id: at + 1,
        alias: `Alias${at}`,
        shorturl: `https://s.example/Alias${at}`,
        longurl: `https://example.com/${title.replace(/ /g, "-")}`,
        title,
        description: "",
        date: null,
        clicks: at,
        seen: 0,
      };
      filtered.put(link);
      scanned.put(link);
    });
    for (const [id, alias] of [
      [20, " Spaced "],
      [21, "//Slashed"],
      [22, "MiXeD-Case"],
    ] as const) {
      const link = {
        id,
        alias,
        shorturl: `https://other.example/x/${alias.trim()}`,
        longurl: "https://example.com/",
        title: "",
        description: "",
        date: null,
        clicks: 0,
        seen: 0,
      };
      filtered.put(link);
      scanned.put(link);
    }
    expect([filtered.idsWithAlias("spaced"), filtered.idsWithAlias("/SLASHED"), filtered.idsWithAlias("mixed-case")]).toEqual([[20], [21], [22]]);
    const queries = [
      "spaced",
      " Spaced ",
      "slashed",
      "/slashed",
      "//slashed",
      "MIXED-CASE",
      "https://other.example/x/MiXeD-Case",
      "straße",
      "STRASSE",
      "ünï",
      "kelvin k",
      "\u212a",
      "σίσυφος",
      "ΣΊΣΥΦΟΣ",
      "σισ",
      "istanbul",
      "İSTANBUL",
      "ıi",
      "😀",
      "😀 link",
      "𐐨𐐨",
      "𐐀𐐀 DES",
      "ǆungla",
      "ǅUN",
      "µ-m",
      "μ-micro",
      "go",
      "o",
      "al",
      "ALIAS3",
      "https://EXAMPLE.com/KELVIN-\u212a-sign",
      "https://example.com/kelvin-k-sign",
      "https://S.example/alias4/",
    ];
    expectSameSearches(filtered, scanned, queries);
    expect(filtered.search(tableQuery("ALIAS3"), 5, false).links.map((link) => link.id)).toEqual([4]);
    expect(filtered.search(tableQuery("straße"), 5, false).links.map((link) => link.id)).toEqual([1]);
    expect(filtered.search(tableQuery("go"), 50, false).matches).toBe(scanned.search(tableQuery("go"), 50, false).matches);
  });

  it("reads only the links that may hold a selective query's words; words under 3 characters, or text most links hold, read every link", () => {
    const table = new LinkTable();
    const topics = ["pricing", "launch", "webinar", "roadmap"];
    for (let id = 1; id <= 5_000; id += 1) {
      const alias = `${topics[id % 4]}-${id.toString(36)}`;
      table.put({
        id,
        alias,
        shorturl: `https://s.example/${alias}`,
        longurl: `https://example.com/${topics[id % 4]}/${id}`,
        title: `${topics[id % 4]} number ${id}`,
        description: "",
        date: null,
        clicks: id % 7,
        seen: 0,
      });
    }
    const candidates = TrigramFilter.prototype.candidates;
    let linksRead = 0;
    const filtered = jest.spyOn(TrigramFilter.prototype, "candidates").mockImplementation(function (this: TrigramFilter, slices, also, visit) {
      candidates.call(this, slices, also, (slot) => {
        linksRead += 1;
        visit(slot);
      });
    });
    /** How many links a search ranks ("every link" when the filter cannot narrow it), and how many match. */
    const search = (text: string) => {
      filtered.mockClear();
      linksRead = 0;
      const { matches } = table.search(tableQuery(text), 10, false);
      return { matches, read: filtered.mock.calls.length === 0 ? "every link" : linksRead };
    };
    try {
      for (const text of ["launch-3e5", "webinar 4710", "no such link"]) {
        const { matches, read } = search(text);
        expect({ text, matches }).toEqual({ text, matches: text === "no such link" ? 0 : 1 });
        expect(read).toBeLessThan(20);
      }
      expect(search("pricing").matches).toBe(1_250);
      expect(search("pricing").read).toBeLessThan(1_500);
      expect(search("nu 7").read).toBe("every link");
      // "example" and "https" are in every long URL: the filter leaves them out, and reads every link.
      expect(search("example")).toEqual({ matches: 5_000, read: "every link" });
    } finally {
      filtered.mockRestore();
    }
  });

  it("folds every code unit so that units search takes as equal share one key (case-insensitive patterns, toLowerCase)", () => {
    const upper = (unit: number) => {
      const text = String.fromCharCode(unit).toUpperCase();
      return text.length === 1 && !(unit >= 128 && text.charCodeAt(0) < 128) ? text.charCodeAt(0) : unit;
    };
    const lower = (unit: number) => {
      const text = String.fromCharCode(unit).toLowerCase();
      return text.length === 1 ? text.charCodeAt(0) : unit;
    };
    const apart: string[] = [];
    for (let unit = 0; unit < 0x10000; unit += 1) {
      if (unit >= 0xd800 && unit <= 0xdfff) {
        if (foldUnit(unit) !== -1) apart.push(`${unit.toString(16)} is a surrogate`);
        continue;
      }
      if (foldUnit(upper(unit)) !== foldUnit(unit) || foldUnit(lower(unit)) !== foldUnit(unit)) apart.push(unit.toString(16));
      if (unit % 7 === 0 && unit > 127) {
        const pattern = new RegExp(String.fromCharCode(unit).replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i");
        for (const other of [upper(unit), lower(unit), unit ^ 32, unit + 1, unit - 1]) {
          if (other >= 0 && other < 0x10000 && pattern.test(String.fromCharCode(other)) && foldUnit(other) !== foldUnit(unit))
            apart.push(`${unit.toString(16)}~${other.toString(16)}`);
        }
      }
    }
    expect(apart).toEqual([]);
  });
});
