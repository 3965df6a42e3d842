import { performance } from 'node:perf_hooks';
import { emptyStats, startSandbox, seededRandom, type Sandbox } from '@linkshort/sandbox';
import { PolledTrigger } from './trigger-poller';

/**
 * New Link under random bursts (links made in runs of one second, thousands at once), random
 * deletions (once a tenth of the account between two polls), a server listing one second's links
 * in a fresh order on each request, pages capped at 100, 37, 250 or not at all, and once a rate
 * limit of 7 requests a minute: every poll at most 12 requests, no link emitted twice, no link
 * that existed at activation emitted, and every surviving new link emitted once the read ends.
 */
jest.setTimeout(300_000);
const realNow = () => performance.timeOrigin + performance.now();
let hostOffset = 0;

it.each([1, 2, 3, 4, 5, 6])('random bursts and deletions, seed %i', async (seed) => {
  hostOffset = 0;
  jest.spyOn(Date, 'now').mockImplementation(() => realNow() + hostOffset);
  const random = seededRandom(seed);
  const cap = [100, 100, 37, undefined, 100, 250][seed - 1];
  const sandbox: Sandbox = await startSandbox({
    seed: 'minimal',
    rateLimit: { limit: seed === 5 ? 7 : 1_000_000, windowMs: 60_000 },
    now: () => realNow() + hostOffset,
    dateTies: 'unstable',
    ...(cap ? { maxPageSize: cap } : {}),
  });
  try {
    // A day before the host's clock, newer than the sandbox's demo links (dated from it): no date here depends on the day.
    let second = Math.floor((realNow() - 86_400_000) / 1000) * 1000;
    const add = (count: number) => {
      const made: number[] = [];
      for (let i = 0; i < count; i += 1) {
        if (random() < 0.05) second += 1000;
        const id = sandbox.store.nextId('links');
        sandbox.store.addLink({
          id,
          userId: 2,
          alias: `f${id}`,
          domain: null,
          url: `https://example.com/f/${id}`,
          type: 'direct',
          password: null,
          expiry: null,
          geotarget: [],
          devicetarget: [],
          parameters: [],
          metatitle: '',
          metadescription: '',
          date: new Date(second).toISOString().slice(0, 19).replace('T', ' '),
          stats: emptyStats(),
        });
        made.push(id);
      }
      return made;
    };
    add(1_500);
    const trigger = new PolledTrigger(() => sandbox, { event: 'newLink' }, { afterPoll: () => void (hostOffset += 60_000) });
    const emitted: number[] = [];
    const pollOnce = async () => {
      for (const json of await trigger.poll()) emitted.push(json.id as number);
      const sent = trigger.lastRequests;
      if (sent > 12) throw new Error(`${sent} requests`);
    };
    for (let i = 0; i < 20 && (i === 0 || trigger.reading !== null); i += 1) await pollOnce();
    const old = new Set(sandbox.store.linksOf(2).map((link) => link.id));
    const made: number[] = [];
    const deleted = new Set<number>();
    for (let round = 0; round < 25; round += 1) {
      if (round < 12) {
        made.push(...add(Math.floor(random() * (round % 4 === 0 ? 1_500 : 120))));
        const alive = sandbox.store.linksOf(2).map((link) => link.id);
        const doomed = alive.filter(() => random() < (round === 5 ? 0.1 : 0.01));
        for (const id of doomed) {
          sandbox.store.removeLink(sandbox.store.linkById(id)!);
          deleted.add(id);
        }
      }
      await pollOnce();
    }
    for (let i = 0; i < 60 && trigger.reading !== null; i += 1) await pollOnce();
    await pollOnce();
    const counts = new Map<number, number>();
    for (const id of emitted) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
    expect(emitted.filter((id) => old.has(id))).toEqual([]);
    expect(made.filter((id) => !deleted.has(id) && !counts.has(id))).toEqual([]);
  } finally {
    jest.restoreAllMocks();
    await sandbox.close();
  }
});
