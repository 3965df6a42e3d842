/**
 * The API key reaches no model and no log in any form a server may echo it in: base64 inside an
 * HTML error page (a proxy's debug page showing the Authorization header), upper-cased, cut short,
 * written as HTML character references, or in any field of a successful answer. The start-up line
 * shows no password of the base URL.
 */
import { LinkShortClient } from '@linkshort/client';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { connectInMemory } from '../../packages/mcp/test/in-memory';

const KEY = 'sk_live_7Fq2mZ9xR4tW8yB1nC6vK3pL0sD5hJ';
const base64 = (text: string) => Buffer.from(text).toString('base64');
const client = new LinkShortClient({ baseUrl: 'http://127.0.0.1:9', apiKey: KEY });

async function connect(linkShortClient: LinkShortClient): Promise<Client> {
  const mcpClient = new Client({ name: 'redaction-test', version: '1.0.0' });
  await connectInMemory(mcpClient, { client: linkShortClient });
  return mcpClient;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => JSON.stringify(result);

describe('redact', () => {
  test.each([
    ['base64 of the Authorization header', `<pre>${base64(`Authorization: Bearer ${KEY}`)}</pre>`],
    ['base64 of the header at another alignment', `debug=${base64(`x-auth: Bearer ${KEY}\r\n`)}`],
    ['base64url of the key', Buffer.from(`Bearer ${KEY}`).toString('base64url')],
    ['the key upper-cased', `INVALID KEY ${KEY.toUpperCase()}`],
    ['the key lower-cased', `invalid key ${KEY.toLowerCase()}`],
    ['the key cut to 24 characters', `key ${KEY.slice(0, 24)}... is not valid`],
    ['the key cut to 16 characters', `key ${KEY.slice(0, 16)}…`],
    ['the key in decimal character references', [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join('')],
    ['the key in hexadecimal character references', `<b>${[...KEY].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('')}</b>`],
  ])('%s', (_form, text) => {
    const redacted = client.redact(text);
    expect(redacted).toContain('[redacted]');
    expect(redacted.toLowerCase()).not.toContain(KEY.slice(0, 16).toLowerCase());
    expect(redacted).not.toContain(base64(KEY).slice(4, 24));
    expect(redacted).not.toContain('&#');
  });

  test('leaves text without the key as it is, entities included', () => {
    const text = 'Tom &amp; Jerry &#169; 2024: Bearer realm=api, sk_live_ is a prefix';
    expect(client.redact(text)).toBe(text);
  });
});

describe('through the MCP server', () => {
  let upstream: Server;
  let sandbox: Sandbox;

  beforeAll(async () => {
    upstream = createServer((request, response) => {
      response.writeHead(502, { 'Content-Type': 'text/html' });
      response.end(`<html><body><h1>Bad gateway</h1><p>request headers: ${base64(`Authorization: ${request.headers.authorization}`)}</p></body></html>`);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    sandbox = await startSandbox({ port: 0, keys: { user: KEY }, rateLimit: { limit: 1000, windowMs: 60_000 } });
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    await sandbox.close();
  });

  test('an HTML error page that echoes the Authorization header in base64 reaches the model without it', async () => {
    const { port } = upstream.address() as AddressInfo;
    const mcpClient = await connect(new LinkShortClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, maxRetries: 0 }));
    const result = await mcpClient.callTool({ name: 'get_account', arguments: {} });
    await mcpClient.close();
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/HTML page/);
    expect(textOf(result)).not.toContain(base64(`Bearer ${KEY}`).slice(8, 40));
    expect(textOf(result)).not.toContain(base64(`Authorization: Bearer ${KEY}`).slice(24, 56));
  });

  test('a successful answer carrying the key in a field has it removed from the text and the structured content', async () => {
    const mcpClient = await connect(new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: KEY }));
    const created = await mcpClient.callTool({ name: 'shorten_link', arguments: { url: 'https://example.com/echo', metatitle: `token ${KEY}` } });
    expect(created.isError).toBeFalsy();
    const found = await mcpClient.callTool({ name: 'find_links', arguments: { text: 'example.com/echo' } });
    await mcpClient.close();
    expect(found.isError).toBeFalsy();
    expect(textOf(found)).toContain('token [redacted]');
    expect(textOf(found)).not.toContain(KEY);
  });
});

test('the start-up line shows the base URL without its user name and password', async () => {
  const cli = join(__dirname, '../../packages/mcp/dist/cli.js');
  const server = spawn(process.execPath, [cli], {
    env: { PATH: process.env.PATH ?? '', LINKSHORT_BASE_URL: 'https://team:hunter2-password@short.example.com', LINKSHORT_API_KEY: KEY },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  while (!stderr.includes('serving')) await new Promise((resolve) => setTimeout(resolve, 20));
  server.kill();
  expect(stderr).toContain('short.example.com');
  expect(stderr).not.toContain('hunter2-password');
  expect(stderr).not.toContain('team:');
});
