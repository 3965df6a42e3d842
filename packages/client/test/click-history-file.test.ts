/** The click history's file: its owner's only, written whole and atomically, never another account's, never a damaged one carried on. */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ClickHistory, FileClickHistoryStore } from "../src";

const ACCOUNT = "https://short.example 0123456789abcdef0123456789abcdef";
const START = Date.UTC(2026, 10, 2, 0, 0);

function fresh(): { folder: string; path: string } {
  const folder = join(mkdtempSync(join(tmpdir(), "linkshort-clicks-")), "made-by-the-store");
  return { folder, path: join(folder, "index.json.clicks.json") };
}

async function sampled(path: string, account = ACCOUNT): Promise<ClickHistory> {
  const history = new ClickHistory({ account, store: new FileClickHistoryStore(path), now: () => START + 4 * 3_600_000 });
  await history.load();
  for (let step = 0; step <= 16; step += 1)
    history.record(
      [
        { id: 1, clicks: step * 3 },
        { id: 2, clicks: 0 },
      ],
      START + step * 15 * 60_000,
    );
  await history.save();
  return history;
}

it("lies beside the index's file, readable by its owner only, in a folder it made for its owner only, with no temporary file left", async () => {
  const { folder, path } = fresh();
  expect(FileClickHistoryStore.besideIndex(join(folder, "index.json")).path).toBe(path);
  await sampled(path);
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(statSync(folder).mode & 0o777).toBe(0o700);
  expect(readdirSync(folder)).toEqual(["index.json.clicks.json"]);
});

it("a process that loads the file answers what the one that wrote it answered", async () => {
  const { path } = fresh();
  const writer = await sampled(path);
  const reader = new ClickHistory({ account: ACCOUNT, store: new FileClickHistoryStore(path) });
  await reader.load();
  const query = { linkId: 1, start: START, end: START + 4 * 3_600_000, granularity: "hour" as const, timeZone: "UTC" };
  expect(reader.series(query)).toEqual(writer.series(query));
  expect(reader.series(query).total).toBe(48);
  expect(reader.notes).toEqual([]);
});

it("a file of another account is not loaded: the history starts empty, says so, and the next save replaces it", async () => {
  const { path } = fresh();
  await sampled(path, "https://other.example ffffffffffffffffffffffffffffffff");
  const history = new ClickHistory({ account: ACCOUNT, store: new FileClickHistoryStore(path) });
  await history.load();
  expect(history.size).toBe(0);
  expect(history.notes).toEqual(["the stored click history is of another account; it starts empty and is rewritten"]);
  await history.save();
  expect((JSON.parse(readFileSync(path, "utf8")) as { account: string }).account).toBe(ACCOUNT);
});

it("a damaged file starts the history empty with a note naming why, and is rewritten whole", async () => {
  const { path } = fresh();
  await sampled(path);
  writeFileSync(path, '{"version": 1, "account": "https://short.exa');
  const warned: string[] = [];
  const history = new ClickHistory({ account: ACCOUNT, store: new FileClickHistoryStore(path), warn: (text) => warned.push(text) });
  await history.load();
  expect(history.size).toBe(0);
  expect(warned).toEqual([`the stored click history could not be read (${path} is not JSON); it starts empty and is rewritten`]);
  history.record({ id: 9, clicks: 1 }, START);
  await history.save();
  expect(Object.keys((JSON.parse(readFileSync(path, "utf8")) as { links: object }).links)).toEqual(["9"]);
});
