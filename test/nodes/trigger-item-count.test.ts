import type { Page } from '@linkshort/client/core';
import { countItems, keptSinceCount, KEPT_SINCE_COUNT } from '../../nodes/nodes/LinkShortTrigger/reading/itemCount';

/** The list's count as New Link takes it after a step back (itemCount.ts), against servers that page in their own ways. */

/** A server listing `total` items that gives `size(asked)` items a page, writing `perpage` as `perpageOf(asked, given)`. */
function server(total: number, size: (asked: number) => number, perpageOf = (_asked: number, given: number) => given) {
  const asked: Array<[number, number]> = [];
  const read = async (page: number, limit: number | 'large'): Promise<Page<{ id: number }>> => {
    const want = limit === 'large' ? 1_000 : limit;
    asked.push([page, want]);
    const given = size(want);
    const maxpage = Math.max(1, Math.ceil(total / given));
    const shown = Math.min(page, maxpage);
    const items = Array.from({ length: Math.max(0, Math.min(given, total - (shown - 1) * given)) }, (_, i) => ({ id: total - (shown - 1) * given - i }));
    return { items, result: items.length, perpage: perpageOf(want, given), currentpage: shown, nextpage: shown + 1, maxpage } as unknown as Page<{
      id: number;
    }>;
  };
  return { read, asked };
}

it('counts with one request where a page of one item is given: its page count', async () => {
  const { read, asked } = server(10_253, (want) => want);
  expect(await countItems(read)).toBe(10_253);
  expect(asked).toEqual([[1, 1]]);
});

it('counts an empty list and a list of one', async () => {
  expect(await countItems(server(0, (want) => want).read)).toBe(0);
  expect(await countItems(server(1, (want) => want).read)).toBe(1);
});

it('counts exactly where the server gives more than asked (its own page size, perpage echoing the limit or not), reading the last page', async () => {
  for (const perpageOf of [(_asked: number, given: number) => given, (asked: number) => asked]) {
    const { read, asked } = server(253, () => 15, perpageOf);
    expect(await countItems(read)).toBe(253);
    expect(asked).toEqual([
      [1, 1],
      [17, 15],
    ]);
  }
  // All on one page of the server's size.
  expect(await countItems(server(12, () => 15).read)).toBe(12);
});

describe('the ids known keeps for the read the next count starts', () => {
  const tally = { total: 500, at: 0, emitted: 3, floorId: 100 };
  it("keeps those above the last count's floor, and drops those at or below it", () => {
    expect(keptSinceCount([90, 100, 150, 260], 250, tally)).toEqual({ known: [150, 260], tally });
  });
  it('with none to keep (no count, or one kept before its floor was recorded), keeps only those above floorId', () => {
    expect(keptSinceCount([150, 260], 250, undefined)).toEqual({ known: [260] });
    expect(keptSinceCount([150, 260], 250, { total: 500, at: 0, emitted: 3 })).toEqual({ known: [260], tally: { total: 500, at: 0, emitted: 3 } });
  });
  it(`past ${KEPT_SINCE_COUNT} below floorId, keeps only those above it and moves the count's floor up to it`, () => {
    const below = Array.from({ length: KEPT_SINCE_COUNT + 1 }, (_, i) => 101 + i);
    const floorId = 101 + KEPT_SINCE_COUNT;
    expect(keptSinceCount([...below, floorId + 1], floorId, tally)).toEqual({ known: [floorId + 1], tally: { ...tally, floorId } });
    expect(keptSinceCount([...below.slice(1), floorId + 1], floorId, tally).known).toHaveLength(KEPT_SINCE_COUNT + 1);
  });
});
