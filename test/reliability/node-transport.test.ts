/**
 * The n8n node's transport (n8n's own HTTP helper, through n8n-core) against raw socket servers:
 * an answer dripped a byte every 500 ms must end at the client's 30 s deadline, not when the
 * server stops; a 200 MB answer must stop being read at the 32 MiB cap, holding no more than it.
 */
import { NodeApiError } from 'n8n-workflow';
import { executeNode } from '../nodes/harness';
import { drippingServer, floodingServer, rssPeak, type SocketServer } from '../nodes/hostile-sockets';

let server: SocketServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

let keys = 0;
const credentials = (baseUrl: string) => ({ baseUrl, apiKey: `sk_node_transport_${(keys += 1)}_${Date.now().toString(36)}` });

describe('the n8n transport', () => {
  it('ends an answer dripped one byte per 500 ms at the whole-request deadline (30 s), not when the server stops (45 s)', async () => {
    server = await drippingServer(500, 45_000);
    const started = Date.now();
    // A create is not retried after a timeout: one attempt, one deadline.
    const error = await executeNode(credentials(server.baseUrl), { resource: 'link', operation: 'create', url: 'https://example.com/drip' }).catch(
      (e: unknown) => e,
    );
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(NodeApiError);
    expect((error as Error).message).toBe('The request timed out after 30000 ms');
    expect(elapsed).toBeLessThan(40_000);
  }, 70_000);

  it('stops reading a 200 MB answer at the 32 MiB cap: ResponseTooLargeError, the connection closed, memory bounded', async () => {
    const total = 200 * 1024 * 1024;
    server = await floodingServer(total);
    const memory = rssPeak();
    const error = await executeNode(credentials(server.baseUrl), { resource: 'link', operation: 'get', id: { __rl: true, mode: 'id', value: '1' } }).catch(
      (e: unknown) => e,
    );
    const grewMb = memory.stop();
    expect(error).toBeInstanceOf(NodeApiError);
    expect((error as Error).message).toBe(`The server's answer is larger than maxBodyBytes (${32 * 1024 * 1024} bytes); reading stopped there (HTTP 200)`);
    // What the message says is true: the server could not send the rest.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(Math.max(...server.bodyBytesWritten)).toBeLessThan(total / 2);
    expect(grewMb).toBeLessThan(150);
  }, 60_000);
});
