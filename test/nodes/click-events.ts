/**
 * The click events polled through n8n-core's PollContext on a clock the test sets: a trigger that
 * keeps its static data through JSON as n8n does, visits landing at chosen times, new links.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { request } from 'undici';
import { poll } from './harness';
import { client, credentials, sandbox, setClock } from './polled-trigger';

export interface Polled {
  at: number;
  items: IDataObject[];
  binaries: Array<Record<string, { mimeType: string; data: string }> | undefined>;
  requests: number;
  totals: Map<number, number>;
}

/** A trigger that polls at the clock's time, with its static data through JSON as n8n keeps it (a new one is a restart). */
export class ClockedTrigger {
  staticData: IDataObject = {};
  readonly polls: Polled[] = [];
  constructor(
    private readonly parameters: INodeParameters,
    private readonly zone = 'Europe/Berlin',
  ) {}

  async pollAt(at: number, watched: number[]) {
    setClock(at);
    const totals = new Map(watched.map((id) => [id, sandbox.store.state.links.find((link) => link.id === id)!.stats.clicks]));
    const marker = sandbox.requests.at(-1);
    const { result, staticData } = await poll(
      credentials,
      this.parameters,
      JSON.parse(JSON.stringify(this.staticData)) as IDataObject,
      'trigger',
      undefined,
      this.zone,
    );
    this.staticData = JSON.parse(JSON.stringify(staticData ?? {})) as IDataObject;
    const output = result?.[0] ?? [];
    const polled = {
      at,
      items: output.map((item) => item.json),
      binaries: output.map((item) => item.binary as Polled['binaries'][number]),
      requests: requestsSince(marker),
      totals,
    };
    this.polls.push(polled);
    return polled;
  }
}

/**
 * API requests served after `marker` (the newest logged before): the log keeps the last hour only,
 * and the clock moves on by more, so its length alone undercounts. An absent marker left with all
 * that came before it.
 */
export function requestsSince(marker: (typeof sandbox.requests)[number] | undefined): number {
  return sandbox.requests.length - 1 - (marker === undefined ? -1 : sandbox.requests.lastIndexOf(marker));
}

export async function visit(shorturl: string, times: number, at: number) {
  setClock(at);
  for (let i = 0; i < times; i += 1) await (await request(shorturl)).body.dump();
}

export async function createLinks(count: number) {
  const links = [];
  for (let i = 0; i < count; i += 1) links.push(await client.links.create({ url: `https://example.com/history/${i}` }));
  return links;
}
