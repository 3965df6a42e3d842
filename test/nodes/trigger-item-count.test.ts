import type { Page } from '@linkshort/client/core';
import type { EventParameters } from '../../nodes/nodes/LinkShortTrigger/event';
import { countedResult, countItems, keptSinceCount, KEPT_SINCE_COUNT } from '../../nodes/nodes/LinkShortTrigger/reading/itemCount';
import type { NewItemsState, Tally } from '../../nodes/nodes/LinkShortTrigger/reading/newItemsState';
import type { PageReader } from '../../nodes/nodes/LinkShortTrigger/reading/pageReader';

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

describe('a count in the poll that made it, against items made while the poll reads', () => {
  const HOUR = 3_600_000;
  const now = 10 * HOUR;
  const parameters = {
    now: () => now,
    timeUp: () => false,
    log: () => {},
  } as unknown as EventParameters;
  const quiet = (tally: Tally, known: number[] = []): NewItemsState => ({
    floorId: 250,
    known,
    top: '2026-01-01 00:00:00',
    topSeenAt: 0,
    topSettled: true,
    pages: 3,
    deepTop: null,
    deepReadAt: 0,
    reading: null,
    cap: 100,
    tally,
  });
  const counted = async (items: number, state: NewItemsState, fresh: Array<{ id: number }>, share: { requests: number; listEnd?: number; fromTop: boolean }) =>
    (await countedResult(server(items, (want) => want).read, { fresh, state }, state, { listEnd: undefined, ...share }, parameters)).state;

  it('an item at the top made after the read is not counted before it is emitted: the next poll counts, and a hidden item after it still shows', async () => {
    const before = quiet({ total: 250, at: now - HOUR, emitted: 0, floorId: 250 });
    // Item 251 was made between the poll's first page and its count.
    const skipped = await counted(251, before, [], { requests: 1, fromTop: true });
    expect(skipped.tally).toEqual(before.tally);
    // The next poll emits 251, then counts.
    const next = await counted(251, quiet(before.tally!, [251]), [{ id: 251 }], { requests: 1, fromTop: true });
    expect(next.tally).toEqual({ total: 251, at: now, emitted: 0, floorId: 250 });
    expect(next.reading).toBeNull();
    // A link hidden by the clock (252, dated below the top: 251 stays on top) shows at the next count.
    const hiddenBelowTop: PageReader<{ id: number }> = async (page, limit) => {
      const answer = await server(252, (want) => want).read(page, limit);
      return { ...answer, items: answer.items.map((item) => (item.id === 252 ? { id: 251 } : item)) };
    };
    const hour = { ...next.tally!, at: now - HOUR };
    const later = await countedResult(
      hiddenBelowTop,
      { fresh: [], state: quiet(hour, [251]) },
      quiet(hour, [251]),
      { requests: 1, listEnd: undefined, fromTop: true },
      parameters,
    );
    expect(later.state.reading?.owed).toBe(1);
  });

  it('the end of the list, reached by a read of more than one page, is confirmed by a count of its own before it starts a read', async () => {
    const before = quiet({ total: 250, at: now - 10 * 60_000, emitted: 0, floorId: 250 });
    // The last page of a 3-page read counted 251 items: 251 was made after the first page, at the top, not emitted yet.
    const state = await counted(251, before, [], { requests: 3, listEnd: 251, fromTop: true });
    expect(state.reading).toBeNull();
    // The count waits for the next poll, which emits 251 first.
    expect(now - state.tally!.at).toBeGreaterThanOrEqual(HOUR);
    expect(state.tally!.total).toBe(250);
  });
});
