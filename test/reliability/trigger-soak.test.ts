import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { request } from 'undici';
import { LinkShortClient } from '@linkshort/client';
import { seededRandom, startSandbox, type Sandbox } from '@linkshort/sandbox';
import { performance } from 'node:perf_hooks';
import { activeTrigger, type Credentials } from '../nodes/harness';

/**
 * A bounded trigger soak: links are created and clicked at random while two triggers poll through
 * n8n-core's PollTriggerExecutor, with faults injected into their reads, their static data taken
 * through JSON (a restart) before most polls, now and then a second poll of the same node started
 * while the first is in flight (sharing its static data, as n8n's cron does), and halfway through
 * the server's clock stepping back an hour. The host's clock moves a minute per round, as n8n's
 * shortest interval. In the end every created link was emitted exactly once, and every threshold
 * crossing exactly once.
 */
const ROUNDS = Number(process.env.TRIGGER_SOAK_ROUNDS ?? 60);
const THRESHOLD = 4;

jest.setTimeout(180_000);

describe('trigger soak', () => {
  let sandbox: Sandbox;
  let clock = Math.floor(Date.now() / 1000) * 1000;
  const realNow = () => performance.timeOrigin + performance.now();
  let hostOffset = 0;
  beforeAll(async () => {
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + hostOffset);
    sandbox = await startSandbox({ seed: 'demo', faultSeed: 7, rateLimit: { limit: 1_000_000, windowMs: 60_000 }, now: () => clock });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await sandbox.close();
  });

  it(`${ROUNDS} rounds of random creates and clicks with faults and restarts: every link and every crossing emitted exactly once`, async () => {
    const random = seededRandom(42);
    const credentials: Credentials = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
    const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: false });
    const triggers: Record<string, { parameters: INodeParameters; staticData: IDataObject; emitted: number[] }> = {
      newLink: { parameters: { event: 'newLink' }, staticData: {}, emitted: [] },
      threshold: { parameters: { event: 'linkClickThreshold', threshold: THRESHOLD }, staticData: {}, emitted: [] },
    };
    let failedPolls = 0;
    let overlaps = 0;
    const runPoll = async (name: string, withFaults: boolean) => {
      const trigger = triggers[name]!;
      sandbox.faults.set(
        withFaults
          ? [
              { kind: '5xx', probability: 0.08 },
              { kind: 'drop', probability: 0.04 },
              { kind: 'malformed', probability: 0.04 },
              { kind: 'html', probability: 0.04 },
            ]
          : [],
      );
      try {
        const restarted = JSON.parse(JSON.stringify(trigger.staticData)) as IDataObject;
        const active = activeTrigger(credentials, trigger.parameters, restarted);
        if (random() < 0.25) {
          // The next scheduled poll starts while this one waits for its first answer.
          overlaps += 1;
          const first = active.poll();
          await new Promise((resolve) => setImmediate(resolve));
          await Promise.all([first, active.poll()]);
        } else {
          await active.poll();
        }
        if (active.errors.length > 0) failedPolls += 1;
        trigger.staticData = JSON.parse(JSON.stringify(active.staticData())) as IDataObject;
        trigger.emitted.push(...active.emitted.flatMap((data) => (data[0] ?? []).map((item) => item.json.id as number)));
      } finally {
        sandbox.faults.clear();
      }
    };

    await runPoll('newLink', false);
    await runPoll('threshold', false);
    const clicksAtBaseline = new Map(sandbox.store.state.links.map((link) => [link.id, link.stats.clicks]));
    const created: number[] = [];

    for (let round = 0; round < ROUNDS; round += 1) {
      // A minute between polls on both clocks; the links of a round share one or two seconds.
      hostOffset += 60_000;
      clock += 60_000 + Math.floor(random() * 2) * 1000;
      if (round === Math.floor(ROUNDS / 2)) clock -= 3_600_000; // the server's clock steps back an hour
      const creations = Math.floor(random() * 25);
      for (let i = 0; i < creations; i += 1) created.push((await client.links.create({ url: `https://example.com/trigger-soak/${round}/${i}` })).id);
      const mine = sandbox.store.state.links.filter((link) => link.userId === 2);
      // Visits favour recent links, so that many cross the threshold during the run.
      const recent = mine.slice(-40);
      const visits = Math.floor(random() * 25);
      for (let i = 0; i < visits; i += 1) {
        const pool = random() < 0.8 ? recent : mine;
        const link = pool[Math.floor(random() * pool.length)]!;
        await (await request(`${sandbox.baseUrl}/${link.alias}`)).body.dump();
      }
      if (random() < 0.15 && mine.length > 10) {
        // Deletes an old link now and then (never one created by the soak, so that each must be emitted).
        const old = mine.find((link) => !created.includes(link.id) && clicksAtBaseline.has(link.id) && (clicksAtBaseline.get(link.id) ?? 0) >= THRESHOLD);
        if (old) await client.links.delete(old.id);
      }
      await runPoll('newLink', true);
      await runPoll('threshold', true);
    }
    for (let i = 0; i < 3; i += 1) {
      hostOffset += 61 * 60_000; // long enough for the hourly look below the top
      clock += 61 * 60_000;
      await runPoll('newLink', false);
      await runPoll('threshold', false);
    }

    const newLinks = triggers.newLink!.emitted;
    expect([...newLinks].sort((a, b) => a - b)).toEqual(created);
    expect(new Set(newLinks).size).toBe(newLinks.length);

    const crossings = sandbox.store.state.links
      .filter((link) => link.stats.clicks >= THRESHOLD && (clicksAtBaseline.get(link.id) ?? 0) < THRESHOLD)
      .map((link) => link.id)
      .sort((a, b) => a - b);
    const fired = triggers.threshold!.emitted;
    expect([...fired].sort((a, b) => a - b)).toEqual(crossings);
    expect(new Set(fired).size).toBe(fired.length);
    console.log(
      `trigger soak: ${ROUNDS} rounds, ${created.length} links created, ${crossings.length} crossings, ${failedPolls} polls failed on injected faults, ${overlaps} overlapping polls`,
    );
    expect(overlaps).toBeGreaterThan(0);
    expect(failedPolls).toBeGreaterThan(0);
  });
});
