/**
 * Row 23 (issue 53): what the MCP server's tool list costs a model in tokens, main's list (a snapshot
 * of its tools/list, `mcp-tools-main.json`) beside this one, for a normal key and an administrator's;
 * and a bulk update of 100 links through update_links at 30 requests a window, the confirmed call's
 * time beside the floor of its requests / rate, with nothing changed by the preview.
 *
 * Tokens are counted with js-tiktoken's o200k_base (GPT-4o's encoding: Claude's tokenizer is not
 * published; installed here as a dependency of n8n's packages). "As a model sees it" is what a host
 * passes a model per tool: name, description and input schema; the whole tools/list JSON is beside it.
 */
import { LinkShortClient, RateLimiter } from '@linkshort/client';
import { startSandbox } from '@linkshort/sandbox';
import { Client } from '@modelcontextprotocol/client';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { addLinks } from '../../packages/client/test/fill-links';
import { connectInMemory } from '../../packages/mcp/test/in-memory';
import { ms, type Row } from './row';

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
}

interface Tokenizer {
  count(text: string): number;
  name: string;
}

async function tokenizer(): Promise<Tokenizer> {
  try {
    const { Tiktoken } = await import('js-tiktoken/lite');
    const { default: ranks } = await import('js-tiktoken/ranks/o200k_base');
    const encoding = new Tiktoken(ranks);
    return { count: (text) => encoding.encode(text).length, name: 'o200k_base tokens' };
  } catch {
    return { count: (text) => Math.ceil(text.length / 4), name: 'tokens estimated as characters / 4 (js-tiktoken is not installed)' };
  }
}

/** What a host hands a model of each tool (Anthropic's and OpenAI's tool definitions): name, description, input schema. */
const modelFacing = (tools: ListedTool[]) =>
  JSON.stringify(tools.map(({ name, description, inputSchema }) => ({ name, description, input_schema: inputSchema })));

async function listedNow(admin: boolean): Promise<ListedTool[]> {
  const sandbox = await startSandbox({ port: 0 });
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
  const mcp = new Client({ name: 'bench-tools', version: '1.0.0' });
  const connection = await connectInMemory(mcp, { client, admin });
  const { tools } = await mcp.listTools();
  await connection.close();
  await sandbox.close();
  return tools as ListedTool[];
}

async function toolListRows(): Promise<Row[]> {
  const tokens = await tokenizer();
  const main = JSON.parse(readFileSync(join(__dirname, 'mcp-tools-main.json'), 'utf8')) as {
    commit: string;
    user: { tools: ListedTool[] };
    admin: { tools: ListedTool[] };
  };
  const rows: Row[] = [];
  for (const [who, admin] of [
    ['a normal key', false],
    ['an administrator key (--admin)', true],
  ] as const) {
    const before = admin ? main.admin.tools : main.user.tools;
    const after = await listedNow(admin);
    const seen = [tokens.count(modelFacing(after)), tokens.count(modelFacing(before))] as const;
    const whole = [tokens.count(JSON.stringify({ tools: after })), tokens.count(JSON.stringify({ tools: before }))] as const;
    rows.push({
      figure: `23. MCP tool list as a model sees it (name, description, input schema), ${who}: ${after.length} tools now, ${before.length} on main (${main.commit})`,
      measured: `${seen[0]} ${tokens.name}`,
      baseline: `${seen[1]} on main`,
      ratio: (seen[0] / seen[1]).toFixed(3),
      goal: '(reported)',
      met: null,
    });
    rows.push({
      figure: `23. same, the whole tools/list JSON (titles, annotations, output schemas), ${who}`,
      measured: `${whole[0]} ${tokens.name}`,
      baseline: `${whole[1]} on main`,
      ratio: (whole[0] / whole[1]).toFixed(3),
      goal: '(reported)',
      met: null,
    });
  }
  return rows;
}

/** The rate limit of a deployed server (30 a minute), its window scaled down 10x as the other rows' are. */
const LIMIT = 30;
const WINDOW_MS = 6_000;
const LINKS = 100;

async function bulkUpdateRows(): Promise<Row[]> {
  const sandbox = await startSandbox({ port: 0, rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
  const ids = addLinks(sandbox, LINKS, { from: Date.now() - 3_600_000, perSecond: 10, name: 'benchbulk', title: (i) => `bench bulk ${i}` });
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
  const mcp = new Client({ name: 'bench-bulk', version: '1.0.0' });
  // A deadline long enough for the whole run in one call: the row measures the pacing, not the calls a model makes.
  const connection = await connectInMemory(mcp, { client, callDeadlineMs: 10 * 60_000 });
  const call = async (args: Record<string, unknown>) =>
    (await mcp.callTool({ name: 'update_links', arguments: args })).structuredContent as { confirmation: string | null; counts: Record<string, number> };
  const writes = () => sandbox.requests.filter((request) => request.method === 'PUT').length;
  const titles = () => ids.map((id) => sandbox.store.state.links.find((link) => link.id === id)!.metatitle);
  // The index's first sync, done before the preview as a running server's is.
  await mcp.callTool({ name: 'find_links', arguments: { text: 'benchbulk' } });
  const args = { search: { text: 'benchbulk', limit: LINKS }, set: { metatitle: 'Bench bulk', utm: { campaign: 'bench' } } };
  const titlesBefore = titles().join('\n');
  const preview = await call(args);
  const changedByPreview = writes() + (titles().join('\n') === titlesBefore ? 0 : 1);
  // Start at a window's beginning (the sandbox's windows start at multiples of WINDOW_MS), a full window to spend.
  await new Promise((resolve) => setTimeout(resolve, 2 * WINDOW_MS - (Date.now() % WINDOW_MS) + 5));
  const requestsBefore = sandbox.requests.length;
  const started = performance.now();
  const done = await call({ ...args, confirmation: preview.confirmation });
  const elapsed = performance.now() - started;
  const requests = sandbox.requests.length - requestsBefore;
  const floor = (requests / LIMIT) * WINDOW_MS;
  const updated = titles().filter((title) => title === 'Bench bulk').length;
  await connection.close();
  await sandbox.close();
  return [
    {
      figure: `23. update_links of ${LINKS} links at ${LIMIT} requests / ${WINDOW_MS / 1000} s (30 a minute scaled 10x): the confirmed call's time beside the floor (requests / rate)`,
      measured: `${ms(elapsed)}, ${requests} requests (a read again and an update a link), ${done.counts.done ?? 0} done, ${updated} updated`,
      baseline: `${ms(floor)} (${requests} / ${LIMIT} per ${WINDOW_MS / 1000} s)`,
      ratio: (elapsed / floor).toFixed(3),
      goal: '<= 1.2, every link done',
      met: elapsed / floor <= 1.2 && updated === LINKS,
    },
    {
      figure: `23. same, links changed by the preview (no confirmation): ${preview.counts['will change'] ?? 0} previewed`,
      measured: `${changedByPreview} changed, ${writes() - updated} updates beyond the ${LINKS}`,
      baseline: '0',
      ratio: '-',
      goal: '0 changed without a confirmation',
      met: changedByPreview === 0,
    },
  ];
}

export async function measureMcpTools(): Promise<Row[]> {
  return [...(await toolListRows()), ...(await bulkUpdateRows())];
}
