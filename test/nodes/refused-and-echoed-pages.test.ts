import type { IDataObject } from 'n8n-workflow';
import { addLinks, fillLinks } from '../../packages/client/test/fill-links';
import { executeNode } from './harness';
import { credentials, sandbox, start, Trigger } from './polled-trigger';

/**
 * The node and the trigger through n8n-core against servers that answer a large `limit` otherwise
 * than with a capped page that says its size (issue 43): one refuses it with the deployed servers'
 * error envelope ("The limit must be between 1 and 100."), another caps pages at 50 but writes the
 * asked `limit` into `perpage` (its `maxpage` and `nextpage` honest).
 */
jest.setTimeout(60_000);

const ids = (items: IDataObject[]) => items.map((item) => item.id as number);
const NEWER = Date.UTC(2026, 0, 2);

/** `count` links made one a second from NEWER (newer than fillLinks' links), straight in the store. */
const addNewLinks = (count: number) => addLinks(sandbox, count, { from: NEWER, perSecond: 1, name: 'new', title: (i) => `New ${i}` });

describe('a server that refuses a large page with its error envelope', () => {
  it('New Link reads its baseline over the refusal, then emits each new link once', async () => {
    await start({ maxPageSize: 100, oversizedPages: 'refuse' });
    fillLinks(sandbox, 150);
    const trigger = new Trigger({ event: 'newLink' });
    await trigger.pollUntilRead();
    expect(trigger.emitted).toEqual([]);
    const made = addNewLinks(30);
    await trigger.pollUntilRead();
    expect(ids(trigger.emitted)).toEqual(made);
  });

  it('Link Received Clicks reads its baseline over the refusal, then emits the link that was clicked', async () => {
    await start({ maxPageSize: 100, oversizedPages: 'refuse' });
    fillLinks(sandbox, 150);
    const trigger = new Trigger({ event: 'newLinkClicks' });
    await trigger.poll();
    const clicked = sandbox.store.state.links.find((link) => link.alias === 'fill42')!;
    for (let i = 0; i < 3; i += 1) await (await fetch(`${sandbox.baseUrl}/fill42`, { redirect: 'manual' })).arrayBuffer();
    const items = await trigger.poll();
    expect(items).toEqual([expect.objectContaining({ id: clicked.id, previousClicks: 0, clicks: 3, newClicks: 3 })]);
  });
});

describe('a server that caps pages at 50 but writes the asked limit into perpage', () => {
  it('Get Many with Return All gives every link: 475 of 475', async () => {
    await start({ maxPageSize: 50, oversizedPages: 'echo' });
    fillLinks(sandbox, 475 - sandbox.store.linksOf(2).length);
    const all = await executeNode(credentials, { resource: 'link', operation: 'getMany', returnAll: true });
    expect(new Set(all.map((item) => item.json.id)).size).toBe(475);
  });

  it('Link Received Clicks emits the clicked links among 475 that all have clicks (a scan of every page)', async () => {
    await start({ maxPageSize: 50, oversizedPages: 'echo' });
    fillLinks(sandbox, 475, () => 1);
    const trigger = new Trigger({ event: 'newLinkClicks' });
    await trigger.pollUntil(() => (trigger.staticData.state as { baselineRead?: boolean } | undefined)?.baselineRead === true, 5);
    const clicked = ['fill470', 'fill200', 'fill3'];
    for (const alias of clicked) await (await fetch(`${sandbox.baseUrl}/${alias}`, { redirect: 'manual' })).arrayBuffer();
    await trigger.pollUntil(() => trigger.emitted.length >= clicked.length, 5);
    expect(trigger.emitted.map((item) => item.alias).sort()).toEqual([...clicked].sort());
    expect(trigger.emitted.every((item) => item.previousClicks === 1 && item.clicks === 2)).toBe(true);
  });

  it('New Link emits every one of 175 new links, once and oldest first', async () => {
    await start({ maxPageSize: 50, oversizedPages: 'echo' });
    fillLinks(sandbox, 20);
    const trigger = new Trigger({ event: 'newLink' });
    await trigger.pollUntilRead();
    expect(trigger.emitted).toEqual([]);
    const made = addNewLinks(175);
    await trigger.pollUntilRead();
    expect(ids(trigger.emitted)).toEqual(made);
  });
});
