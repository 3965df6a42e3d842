import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { barsOf, decodePng } from '../charts/png-reader';
import { executeNode, type Credentials } from './harness';

let sandbox: Sandbox;
let user: Credentials;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowMs: 60_000 } });
  user = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
});
afterAll(() => sandbox.close());

const BAR_COLOURS = ['#0969da', '#54aeff'];

function pngOf(item: INodeExecutionData, field = 'chart') {
  const binary = item.binary?.[field];
  if (!binary) throw new Error(`no binary field "${field}"`);
  return { binary, image: decodePng(Buffer.from(binary.data, 'base64')) };
}

describe('Link Get and QR Code Get with Add Click Chart (through n8n-core)', () => {
  it("Link Get adds the chart as a PNG named after the alias, with the link's clicks drawn as bars; the JSON is unchanged", async () => {
    const link = sandbox.store.state.links.find((candidate) => candidate.userId === 2 && candidate.alias === 'raycast')!;
    expect(link.stats.clicks).toBeGreaterThan(0);
    const [plain] = await executeNode(user, { resource: 'link', operation: 'get', id: link.id });
    expect(plain!.binary).toBeUndefined();
    const [item] = await executeNode(user, { resource: 'link', operation: 'get', id: link.id, addChart: true });
    expect(item!.json).toEqual(plain!.json);
    const { binary, image } = pngOf(item!);
    expect(binary).toMatchObject({ mimeType: 'image/png', fileName: 'raycast-clicks.png', fileExtension: 'png' });
    expect([image.width, image.height]).toEqual([640, expect.any(Number)]);
    const bars = barsOf(image, BAR_COLOURS);
    const countries = Object.keys(item!.json.topCountries as object).length;
    expect(bars.length).toBeGreaterThanOrEqual(2 + Math.min(5, countries));
    // The first bar is the clicks, the widest; unique clicks is no longer.
    expect(bars[1]!.length).toBeLessThanOrEqual(bars[0]!.length);
    const unique = item!.json.uniqueClicks as number;
    expect(Math.abs(bars[1]!.length - (bars[0]!.length * unique) / link.stats.clicks)).toBeLessThanOrEqual(1);
  });

  it('names the PNG in linear time from a hostile alias (200,000 hyphens from a server): cut, never a hang', async () => {
    const link = sandbox.store.state.links.find((candidate) => candidate.userId === 2 && candidate.alias === 'raycast')!;
    const hostile = { ...link, id: sandbox.store.nextId('links'), alias: `a${'-'.repeat(200_000)}a` };
    sandbox.store.state.links.push(hostile);
    const started = Date.now();
    const [item] = await executeNode(user, { resource: 'link', operation: 'get', id: hostile.id, addChart: true });
    // A quadratic cut blocks the event loop for about 15 s here (jest's timeout cannot fire during it); a linear one well under a second.
    expect(Date.now() - started).toBeLessThan(5_000);
    const { binary } = pngOf(item!);
    expect(binary.fileName).toMatch(/^[A-Za-z0-9._-]{1,80}-clicks\.png$/);
  });

  it("puts the chart in the field named by Put Chart in Field, beside the input item's pairing", async () => {
    const link = sandbox.store.state.links.find((candidate) => candidate.userId === 2 && candidate.alias === 'raycast')!;
    const [item] = await executeNode(user, { resource: 'link', operation: 'get', id: link.id, addChart: true, chartField: 'attachment', simplify: false });
    expect(Object.keys(item!.binary!)).toEqual(['attachment']);
    expect(item!.pairedItem).toEqual({ item: 0 });
    expect(Object.keys(item!.json)).toEqual(['details', 'stats']);
  });

  it('QR Code Get adds a chart of scans; a QR code never scanned gets an honest "no scans yet" picture with no bar', async () => {
    const created = await executeNode(user, {
      resource: 'qrCode',
      operation: 'create',
      qrType: 'link',
      link: 'https://example.com/never-scanned',
      name: 'Poster',
    });
    const id = created[0]!.json.id as number;
    const [item] = await executeNode(user, { resource: 'qrCode', operation: 'get', id, addChart: true });
    const { binary, image } = pngOf(item!);
    expect(binary.fileName).toMatch(/-scans\.png$/);
    expect(barsOf(image, BAR_COLOURS)).toEqual([]);
    expect(image.height).toBeLessThan(200);
  });
});

describe('the click-threshold example workflow sends the chart with its alert', () => {
  interface ExampleNode {
    name: string;
    type: string;
    parameters: INodeParameters;
  }
  const example = JSON.parse(readFileSync(join(__dirname, '../../nodes/examples/alert-slack-on-click-threshold.json'), 'utf8')) as {
    nodes: ExampleNode[];
    connections: Record<string, { main: Array<Array<{ node: string }>> }>;
  };
  const node = (name: string) => example.nodes.find((candidate) => candidate.name === name)!;

  it('charts the link the trigger names (its item as input) and hands the PNG to the Slack upload beside the text alert', async () => {
    expect(example.connections['Link passed 100 clicks']!.main[0]!.map((target) => target.node)).toEqual(['Chart its clicks']);
    expect(example.connections['Chart its clicks']!.main[0]!.map((target) => target.node).sort()).toEqual(['Post to Slack', 'Upload the chart to Slack']);
    const link = sandbox.store.state.links.find((candidate) => candidate.userId === 2 && candidate.alias === 'raycast')!;
    // What the trigger emits for a crossing: the link as listed, with the threshold.
    const triggerItem = { json: { id: link.id, shorturl: `${sandbox.baseUrl}/raycast`, clicks: link.stats.clicks, threshold: 100, crossedAgain: false } };
    const [item] = await executeNode(user, node('Chart its clicks').parameters, [triggerItem]);
    const upload = node('Upload the chart to Slack');
    expect(upload.type).toBe('n8n-nodes-base.slack');
    const { binary, image } = pngOf(item!, upload.parameters.binaryPropertyName as string);
    expect(binary.fileName).toBe('raycast-clicks.png');
    expect(barsOf(image, BAR_COLOURS).length).toBeGreaterThan(2);
    // The text alert reads fields the chart node's simplified item has.
    for (const field of ['shorturl', 'longurl', 'clicks', 'uniqueClicks', 'topCountries']) {
      expect(item!.json).toHaveProperty(field);
      expect(String(node('Post to Slack').parameters.jsonBody)).toContain(`$json.${field}`);
    }
  });
});
