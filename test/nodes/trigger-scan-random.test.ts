import { performance } from 'node:perf_hooks';
import { emptyStats, startSandbox, seededRandom, type Sandbox } from '@linkshort/sandbox';
import { PolledTrigger } from './trigger-poller';

/**
 * The click and threshold scans over an account whose links were made in runs of one second
 * (some runs longer than a page), on a server listing one second's links in a fresh order on each
 * request, pages capped at 100, 37 or not at all: random clicks, creations and deletions (once
 * 8% of the account between two polls) over 15 polls, then quiet passes. Every poll at most 12
 * requests; every link's growth emitted exactly (threshold: each crossing once), none twice.
 */
jest.setTimeout(300_000);
const realNow = () => performance.timeOrigin + performance.now();
let hostOffset = 0;

it.each([1, 2, 3, 4])('random clicks, creations and deletions, seed %i', async (seed) => {
  hostOffset = 0;
  jest.spyOn(Date, 'now').mockImplementation(() => realNow() + hostOffset);
  const random = seededRandom(seed);
  const cap = [100, 37, undefined, 100][seed - 1];
  const event = seed % 2 === 0 ? 'linkClickThreshold' : 'newLinkClicks';
  const sandbox: Sandbox = await startSandbox({
    seed: 'minimal',
    rateLimit: { limit: 1_000_000, windowMs: 60_000 },
    now: () => realNow() + hostOffset,
    dateTies: 'unstable',
    ...(cap ? { maxPageSize: cap } : {}),
  });
  try {
    // A day before the host's clock, newer than the sandbox's demo links (dated from it): no date here depends on the day.
    let second = Math.floor((realNow() - 86_400_000) / 1000) * 1000;
    const add = (count: number) => {
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
          stats: { ...emptyStats(), clicks: Math.floor(random() * 5) },
        });
      }
    };
    add(2_500);
    const trigger = new PolledTrigger(() => sandbox, event === 'linkClickThreshold' ? { event, threshold: 10 } : { event }, {
      afterPoll: () => void (hostOffset += 60_000),
    });
    const { emitted } = trigger;
    const pollOnce = async () => {
      await trigger.poll();
      if (trigger.lastRequests > 12) throw new Error('too many requests');
    };
    for (let i = 0; i < 60 && !trigger.baselineRead; i += 1) await pollOnce();
    const start = new Map(sandbox.store.linksOf(2).map((link) => [link.id, link.stats.clicks]));
    const deleted = new Set<number>();
    for (let round = 0; round < 30; round += 1) {
      if (round < 15) {
        add(Math.floor(random() * 40));
        const alive = sandbox.store.linksOf(2);
        for (let i = 0; i < 20; i += 1) {
          const link = alive[Math.floor(random() * alive.length)]!;
          sandbox.store.changingLink(link);
          link.stats.clicks += event === 'linkClickThreshold' ? 6 : 1;
        }
        for (const link of alive.filter(() => random() < (round === 4 ? 0.08 : 0.005))) {
          sandbox.store.removeLink(link);
          deleted.add(link.id);
        }
      }
      await pollOnce();
    }
    // Quiet polls until two more passes have been read whole.
    const passOf = () => (trigger.staticData.state as { scan: { pass: number } }).scan.pass;
    const until = passOf() + 2;
    for (let i = 0; i < 200 && passOf() < until; i += 1) await pollOnce();
    const byId = new Map<number, number>();
    for (const item of emitted)
      byId.set(item.id as number, (byId.get(item.id as number) ?? 0) + (event === 'linkClickThreshold' ? 1 : (item.newClicks as number)));
    const wrong: unknown[] = [];
    for (const link of sandbox.store.linksOf(2)) {
      const before = start.get(link.id) ?? 0;
      const expected = event === 'linkClickThreshold' ? (before < 10 && link.stats.clicks >= 10 ? 1 : 0) : link.stats.clicks - before;
      if ((byId.get(link.id) ?? 0) !== expected) wrong.push([link.id, byId.get(link.id) ?? 0, expected]);
    }
    expect(wrong.slice(0, 20)).toEqual([]);
  } finally {
    jest.restoreAllMocks();
    await sandbox.close();
  }
});
