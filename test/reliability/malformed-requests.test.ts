import { connect } from 'node:net';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';

/** Sends raw bytes and returns what came back before the server closed the connection or 2 s passed. */
function rawExchange(sandbox: Sandbox, bytes: string): Promise<string> {
  const { hostname, port } = new URL(sandbox.baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(done, 2000);
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      // One complete answer is enough: stop at the end of its body.
      const length = /content-length: (\d+)/i.exec(answer)?.[1];
      const head = answer.indexOf('\r\n\r\n');
      if (length !== undefined && head >= 0 && answer.length >= head + 4 + Number(length)) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(bytes, 'latin1');
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);

describe('malformed requests over raw sockets: answered with 4xx, and the sandbox keeps serving', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
  });
  afterAll(() => sandbox.close());

  const healthy = async () => statusOf(await rawExchange(sandbox, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));

  it.each([
    ['an absolute-form target with an unterminated IPv6 host', 'GET http://[ HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['an absolute-form target with a bad port', 'GET http://example.com:99999/api/account HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['an absolute-form API target with a bad host', 'POST http://exa%mple/api/url/add HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}'],
    ['an absolute-form target of an unknown scheme', 'GET foo://[::1 HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a control route through an unparsable absolute form', 'POST http://[/__sandbox/faults HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}'],
  ])('%s gets 400', async (_, bytes) => {
    const answer = await rawExchange(sandbox, bytes);
    expect(statusOf(answer)).toBe(400);
    expect(answer).toMatch(/target/i);
    expect(await healthy()).toBe(200);
  });

  it.each([
    ['a request line of garbage', '\x00\x01\x02 nonsense\r\n\r\n'],
    ['a target with a space in it', 'POST http://exa mple/api/url/add HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}'],
    ['a header without a colon', 'GET /health HTTP/1.1\r\nHost x\r\n\r\n'],
    ['two different Content-Length headers', 'POST /api/url/add HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}'],
    ['a broken chunked body', 'POST /api/url/add HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
    ['a 64 KB header', `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`],
  ])('%s is refused by the HTTP parser with 4xx', async (_, bytes) => {
    const status = statusOf(await rawExchange(sandbox, bytes));
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(await healthy()).toBe(200);
  });

  it('odd but well-formed targets get ordinary answers', async () => {
    const key = `Authorization: Bearer ${sandbox.userKey}\r\n`;
    const cases: Array<[string, number]> = [
      [`GET http://elsewhere.example/api/account HTTP/1.1\r\nHost: x\r\n${key}Connection: close\r\n\r\n`, 200],
      [`GET /api/url/%zz%00 HTTP/1.1\r\nHost: x\r\n${key}Connection: close\r\n\r\n`, 404],
      ['GET /%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 404],
      ['OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 404],
      [`GET /api/account?${'q=%FF&'.repeat(500)} HTTP/1.1\r\nHost: x\r\n${key}Connection: close\r\n\r\n`, 200],
    ];
    for (const [bytes, status] of cases) expect([bytes.slice(0, 40), statusOf(await rawExchange(sandbox, bytes))]).toEqual([bytes.slice(0, 40), status]);
    expect(await healthy()).toBe(200);
  });

  it('a hundred bad targets in a row leave the sandbox serving API calls', async () => {
    for (let i = 0; i < 100; i += 1) await rawExchange(sandbox, `GET http://[${i} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const answer = await rawExchange(sandbox, `GET /api/account HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${sandbox.userKey}\r\nConnection: close\r\n\r\n`);
    expect(statusOf(answer)).toBe(200);
    expect(answer).toContain('"username":"demo"');
  });
});
