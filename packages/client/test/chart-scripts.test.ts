import { clickChart } from "../src/charts";
import { characterShape, fontDraws } from "../src/charts/glyphs";

const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, index) => String.fromCodePoint(first + index));

const LATIN_1_LETTERS_AND_SIGNS = range(0xa1, 0xff).filter((character) => character !== "\u00ad");
const LATIN_EXTENDED_A = range(0x100, 0x17f);
const GREEK = ["\u0386", ...range(0x388, 0x38a), "\u038c", ...range(0x38e, 0x3a1), ...range(0x3a3, 0x3ce)];
const CYRILLIC = [...range(0x400, 0x45f), "\u0490", "\u0491"];
const ASCII = range(0x21, 0x7e);

/**
 * The only characters drawn alike: letters of one shape in two or three alphabets, as every font
 * draws them (and accented letters built on them). Each group is written as it comes out.
 */
const LOOKALIKES = [..."AΑА BΒВ CС EΕЕ HΗН IΙІ JЈ KΚК MΜМ NΝ OΟО PΡР SЅ TΤТ XΧХ YΥ ZΖ aа cс eе iі jј oοо pр sѕ xх yу µμ ÐĐ ΓГ ΠП ΦФ".split(" "), " \u00a0"];
const representative = new Map<string, string>();
for (const group of LOOKALIKES) for (const character of group) representative.set(character, [...group][0]!);
/** A character with each lookalike letter of its decomposition replaced by its group's first. */
const skeleton = (character: string) => [...character.normalize("NFD")].map((part) => representative.get(part) ?? part).join("");
const shapeKey = (character: string) => JSON.stringify(characterShape(character));

describe("the PNG font", () => {
  it("draws every letter and sign of Latin-1 Supplement and Latin Extended-A, and the Greek and Cyrillic alphabets, each with pixels of its own", () => {
    for (const character of [...LATIN_1_LETTERS_AND_SIGNS, ...LATIN_EXTENDED_A, ...GREEK, ...CYRILLIC]) {
      expect([character, fontDraws(character)]).toEqual([character, true]);
      expect(characterShape(character).rects.length).toBeGreaterThan(0);
    }
  });

  it("gives two characters the same pixels only when they are lookalike letters of two alphabets (checked over 0x20-0x52f, Latin and Greek extended, CJK and emoji)", () => {
    const characters = [...range(0x20, 0x52f), ...range(0x1e00, 0x1fff), ...range(0x4e00, 0x4fff), ...range(0x1f600, 0x1f64f)];
    const byShape = new Map<string, string[]>();
    for (const character of characters) {
      const key = shapeKey(character);
      byShape.set(key, [...(byShape.get(key) ?? []), character]);
    }
    const shared = [...byShape.values()].filter((group) => group.length > 1);
    for (const group of shared) expect([group.join(""), new Set(group.map(skeleton)).size]).toEqual([group.join(""), 1]);
    // And the plain lookalike groups are exactly these.
    const plain = shared.filter((group) => group.every((character) => character.normalize("NFD").length === 1)).map((group) => group.join(""));
    expect(plain.sort()).toEqual([...LOOKALIKES].sort());
  });

  it("draws what it has no letter for as its code point in hex in a box of the character's width: CJK two cells, emoji six digits", () => {
    for (const character of ["東", "京", "大", "阪", "店", "😀", "😁", "ع", "\u0301"]) expect(fontDraws(character)).toBe(false);
    expect(characterShape("東").cells).toBe(2);
    expect(characterShape("😀").cells).toBe(2);
    expect(characterShape("ع").cells).toBe(1);
    expect(shapeKey("東")).not.toBe(shapeKey("京"));
    expect(shapeKey("😀")).not.toBe(shapeKey("😁"));
  });
});

/** The PNG of a chart whose one country is `name`, and of one titled `name`. */
function pngsOf(name: string): Buffer[] {
  return [Buffer.from(clickChart({ clicks: 5, topCountries: { [name]: 5 } }).png()), Buffer.from(clickChart({ clicks: 5 }, { title: name }).png())];
}

describe("chart PNG: two different names never give the same image", () => {
  // Each pair but Łódź gave byte-identical PNGs before: accents were dropped, Cyrillic, Greek, CJK and emoji drawn as boxes.
  for (const [one, other] of [
    ["Москва", "Лондон"],
    ["東京店", "大阪店"],
    ["Zürich", "Zurich"],
    ["Αθήνα", "Ρόδος"],
    ["Łódź", "Lodz"],
    ["😀", "😁"],
  ] as const) {
    it(`${one} and ${other}, as a list's label and as the title`, () => {
      const [oneLabel, oneTitle] = pngsOf(one);
      const [otherLabel, otherTitle] = pngsOf(other);
      expect(oneLabel!.equals(otherLabel!)).toBe(false);
      expect(oneTitle!.equals(otherTitle!)).toBe(false);
    });
  }

  it("draws each letter of the alphabets as its own image, none drawn as a blank (a title of one letter)", () => {
    const images = new Map<string, string>();
    const titled = (title: string) => Buffer.from(clickChart({ clicks: 1 }, { title, width: 320 }).png()).toString("base64");
    const blank = titled("[ ]");
    for (const character of [...ASCII, ...LATIN_1_LETTERS_AND_SIGNS, ...LATIN_EXTENDED_A, ...GREEK, ...CYRILLIC]) {
      const key = titled(`[${character}]`);
      expect([character, key === blank]).toEqual([character, false]);
      images.set(key, (images.get(key) ?? "") + character);
    }
    const alike = [...images.values()].filter((group) => [...group].length > 1);
    for (const group of alike) expect(new Set([...group].map(skeleton)).size).toBe(1);
  });

  it("draws a decomposed u with a combining diaeresis as the composed ü (canonically the same name)", () => {
    expect(
      Buffer.from(clickChart({ clicks: 1 }, { title: "Zu\u0308rich" }).png()).equals(Buffer.from(clickChart({ clicks: 1 }, { title: "Zürich" }).png())),
    ).toBe(true);
  });
});
