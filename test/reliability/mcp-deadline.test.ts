/**
 * A tool call against a server that never answers ends at the call's deadline with a tool error a
 * model can act on (long before the 60 s after which clients give up), and the hung request is
 * abandoned rather than left open. The deadline is short here; the bench measures the default.
 */
import { LinkShortClient } from '@linkshort/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectInMemory } from '../../packages/mcp/test/in-memory';

let hung: Server;
const held: IncomingMessage[] = [];
let closedByClient = 0;
let mcpClient: Client;

beforeAll(async () => {
  hung = createServer((request) => {
    held.push(request);
    request.socket.on('close', () => (closedByClient += 1));
  });
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  const { port } = hung.address() as AddressInfo;
  const client = new LinkShortClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'deadline-test-key-0123456789' });
  mcpClient = new Client({ name: 'deadline-test', version: '1.0.0' });
  await connectInMemory(mcpClient, { client, callDeadlineMs: 1000 });
});

afterAll(async () => {
  await mcpClient.close();
  hung.closeAllConnections();
  await new Promise<void>((resolve) => hung.close(() => resolve()));
});

test.each([
  ['get_link', { id: 1 }, /^The LinkShort server did not answer get_link within 1 s, so the call was stopped\. .*retry later/],
  ['shorten_link', { url: 'https://example.com/hung' }, /did not answer shorten_link within 1 s.*may or may not have been made/],
])('%s against a server that never answers ends in a tool error at the deadline', async (name, args, message) => {
  const requestsBefore = held.length;
  const result = await mcpClient.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(message);
  expect(held.length).toBeGreaterThan(requestsBefore);
  // The client let go of the hung request when the deadline passed.
  for (let wait = 0; closedByClient < held.length && wait < 100; wait += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(closedByClient).toBe(held.length);
});
