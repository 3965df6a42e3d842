import { isRecord } from "../values";

/**
 * The journal beside a data file's snapshot (`FILE.journal`): a header line naming the snapshot's
 * generation, then one JSON line per acknowledged change. Its format, reading and replay live
 * here; the data file writes it.
 */

export const journalHeader = (generation: number): string => `${JSON.stringify({ generation })}\n`;
export const journalLine = (entry: JournalEntry): string => `${JSON.stringify(entry)}\n`;

/** One line of the journal: whole records put into or removed from a large collection, small collections whole, id counters. */
export interface JournalEntry {
  links?: { put?: unknown[]; del?: number[] };
  small?: Record<string, unknown[]>;
  nextId?: Record<string, number>;
}

/** Applies journal entries to a snapshot's parsed JSON, before its shape is checked. */
export function replayJournal(value: Record<string, unknown>, entries: JournalEntry[]): void {
  if (entries.length === 0) return;
  const links = (Array.isArray(value.links) ? value.links : []) as Array<Record<string, unknown> | undefined>;
  const index = new Map<number, number>();
  links.forEach((link, position) => index.set(Number(link?.id), position));
  for (const entry of entries) {
    for (const record of entry.links?.put ?? []) {
      const id = Number((record as Record<string, unknown>)?.id);
      const position = index.get(id);
      if (position === undefined || links[position] === undefined) {
        index.set(id, links.length);
        links.push(record as Record<string, unknown>);
      } else links[position] = record as Record<string, unknown>;
    }
    for (const id of entry.links?.del ?? []) {
      const position = index.get(id);
      if (position !== undefined) links[position] = undefined;
      index.delete(id);
    }
    for (const [collection, items] of Object.entries(entry.small ?? {})) value[collection] = items;
    if (entry.nextId) value.nextId = entry.nextId;
  }
  value.links = links.filter((link) => link !== undefined);
}

/**
 * The entries of a journal's text for the snapshot of this generation. A journal of another
 * generation is ignored (its changes are already in the snapshot); a torn last line (a write cut
 * short by a crash, never acknowledged) is left out, with a log line; a damaged line before the
 * end is refused.
 */
export function journalEntries(text: string, generation: number, journalFile: string, dataFile: string): JournalEntry[] {
  const lines = text.split("\n");
  const header = parseLine(lines[0]);
  if (!isRecord(header) || header.generation !== generation) {
    console.error(
      `linkshort-sandbox: journal "${journalFile}" belongs to another snapshot (generation ${String(isRecord(header) ? header.generation : "unreadable")}, snapshot ${generation}); its changes are already in the snapshot, ignored`,
    );
    return [];
  }
  const entries: JournalEntry[] = [];
  for (let index = 1; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (line === "") continue;
    const entry = parseLine(line);
    if (isRecord(entry)) {
      entries.push(entry);
      continue;
    }
    const last = lines.slice(index + 1).every((rest) => rest === "");
    if (!last) throw new Error(`data file "${dataFile}": line ${index + 1} of the journal "${journalFile}" is not a valid change; fix or remove the journal`);
    console.error(
      `linkshort-sandbox: ignoring the torn last line of the journal "${journalFile}" (${line.length} characters): a write cut short, never acknowledged`,
    );
  }
  return entries;
}

function parseLine(line: string | undefined): unknown {
  try {
    return JSON.parse(line ?? "");
  } catch {
    return undefined;
  }
}
