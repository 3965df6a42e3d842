/**
 * What the editor and n8n's AI workflow builder read from the built nodes' descriptions: the canvas
 * subtitle, the Docs link, the chart options' names, and the builder hints on each operation and event.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { linkShortDescription, TRIGGER_TYPE, workflowWith } from './harness';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { LinkShortTrigger } = require('../../nodes/dist/nodes/LinkShortTrigger/LinkShortTrigger.node.js') as {
  LinkShortTrigger: new () => { description: typeof linkShortDescription };
};
const trigger = new LinkShortTrigger().description;

const operationsOf = (resource: string) =>
  (linkShortDescription.properties.find((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource))?.options ??
    []) as INodePropertyOptions[];

describe('the canvas subtitle', () => {
  it('reads the operation\'s action, as the node creator names it, not "create: link"', () => {
    const subtitle = (resource: string, operation: string) => {
      const { workflow, node } = workflowWith('n8n-nodes-linkshort.linkShort', { resource, operation });
      return workflow.expression.getSimpleParameterValue(node, linkShortDescription.subtitle!, 'internal', {});
    };
    expect(subtitle('link', 'create')).toBe('Shorten a link');
    expect(subtitle('link', 'getMany')).toBe('Get many links');
    expect(subtitle('qrCode', 'get')).toBe('Get a QR code');
    for (const resource of (linkShortDescription.properties.find((property) => property.name === 'resource')!.options as INodePropertyOptions[]).map((option) =>
      String(option.value),
    )) {
      for (const operation of operationsOf(resource)) expect(subtitle(resource, String(operation.value))).toBe(operation.action);
    }
  });
});

describe('the Docs link', () => {
  it('is the README as written: n8n adds its query only to a codex link, which then has no fragment for the query to land after', () => {
    for (const [description, codexFile] of [
      [linkShortDescription, 'LinkShort/LinkShort.node.json'],
      [trigger, 'LinkShortTrigger/LinkShortTrigger.node.json'],
    ] as const) {
      // n8n's node panel shows a documentationUrl that starts with http as it is.
      expect(description.documentationUrl).toBe('https://github.com/linkshort/linkshort/tree/main/nodes#readme');
      const codex = JSON.parse(readFileSync(join(__dirname, '../../nodes/nodes', codexFile), 'utf8')) as { resources: Record<string, Array<{ url: string }>> };
      for (const { url } of Object.values(codex.resources).flat()) {
        // What n8n's editor builds from a codex link: `${url}?utm_source=...`.
        const opened = new URL(`${url}?utm_source=n8n_app`);
        expect({ url, query: opened.searchParams.get('utm_source'), fragment: opened.hash }).toEqual({ url, query: 'n8n_app', fragment: '' });
      }
    }
  });
});

describe('the chart option', () => {
  const chartOption = (resource: string) =>
    linkShortDescription.properties.find(
      (property) => property.name === 'addChart' && property.displayOptions?.show?.resource?.includes(resource),
    ) as INodeProperties;

  it('says scans for a QR code and clicks for a link', () => {
    expect(chartOption('qrCode')).toMatchObject({ displayName: 'Add Scan Chart', description: expect.stringContaining('PNG chart of the scans') });
    expect(chartOption('link')).toMatchObject({ displayName: 'Add Click Chart', description: expect.stringContaining('PNG chart of the clicks') });
  });
});

describe("builder hints for n8n's AI workflow builder", () => {
  it('the node says what it is for, the reuse rule, and which node starts workflows', () => {
    const hint = linkShortDescription.builderHint!;
    expect(hint.searchHint).toMatch(/Reuse Existing Link/);
    expect(hint.relatedNodes?.map((node) => node.nodeType)).toContain(TRIGGER_TYPE);
  });

  it('every link operation says which request it fits; Create gives the reuse rule', () => {
    for (const option of operationsOf('link'))
      expect({ operation: option.value, hint: option.builderHint?.propertyHint }).toEqual({ operation: option.value, hint: expect.stringMatching(/^Use /) });
    const create = operationsOf('link').find((option) => option.value === 'create')!.builderHint!.propertyHint;
    expect(create).toMatch(/options\.reuse/);
    // The node keeps password hashes in its record: the same password or none, as its Reuse option says.
    expect(create).toMatch(
      /same URL, alias, domain, title, description, expiry, targeting, redirect type, UTM\/parameters and password \(the same password or none\)/,
    );
    expect(operationsOf('link').find((option) => option.value === 'get')!.builderHint!.propertyHint).toMatch(/clicks/);
  });

  it('the trigger says that its first poll records a baseline and that each item is emitted once; every event says which request it fits', () => {
    expect(trigger.builderHint!.searchHint).toMatch(/first poll after activation only records a baseline and emits nothing/);
    expect(trigger.builderHint!.searchHint).toMatch(/emitted once, never repeated or missed/);
    const events = trigger.properties.find((property) => property.name === 'event')!.options as INodePropertyOptions[];
    expect(events.length).toBe(7);
    for (const event of events)
      expect({ event: event.value, hint: event.builderHint?.propertyHint }).toEqual({ event: event.value, hint: expect.stringMatching(/^For "/) });
    expect(events.find((event) => event.value === 'newLink')!.builderHint!.propertyHint).toMatch(/baseline/);
  });
});
