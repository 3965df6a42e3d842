/**
 * Row 18: the built server with `--sign-in` under a flood of wrong keys from one address for a
 * minute, four at a time without pause, half in the `X-LinkShort-Api-Key` header (a new key each
 * time) and half on one sign-in page and its cookie replayed: how many of them the server checked
 * with the service (what the service saw as failed logins, and what the sender learnt of a key)
 * beside how many it was sent. The goal is the per-address bound: its burst and a minute's rate.
 */
import { startSandbox } from '@linkshort/sandbox';
import { performance } from 'node:perf_hooks';
import { ADDRESS_BOUND } from '../../packages/mcp/src/auth/failure-throttle';
import { openSignInPage, pkce, REDIRECT_URI, submitSignIn } from '../../packages/mcp/test/sign-in-helpers';
import { startMcpHttpProcess } from '../support/mcp-process';
import type { Row } from './row';

const FLOOD_MS = 60_000;
const AT_ONCE = 4;

export async function measureSignInFlood(): Promise<Row[]> {
  const sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1_000_000, windowMs: 60_000 }, requestLog: { maxEntries: 1_000_000 } });
  const server = await startMcpHttpProcess({ LINKSHORT_BASE_URL: sandbox.baseUrl }, ['--sign-in']);
  try {
    const issuer = new URL(server.url).origin;
    const registered = (await (
      await fetch(`${issuer}/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT_URI], client_name: 'flood' }),
      })
    ).json()) as { client_id: string };
    const page = await openSignInPage(
      `${issuer}/authorize?${new URLSearchParams({ response_type: 'code', client_id: registered.client_id, redirect_uri: REDIRECT_URI, code_challenge: pkce().challenge, code_challenge_method: 'S256' })}`,
    );
    const accountReads = () => sandbox.requests.filter((entry) => entry.path === '/api/account').length;
    const readsBefore = accountReads();
    const statuses = new Map<number, number>();
    let sent = 0;
    const started = performance.now();
    const attacker = async (lane: number) => {
      while (performance.now() - started < FLOOD_MS) {
        const key = `made-up-key-${lane}-${sent++}-0123456789abcdef0123456789`;
        const status =
          lane % 2 === 0
            ? await fetch(server.url, {
                method: 'POST',
                headers: {
                  'Content-Type': 'application/json',
                  Accept: 'application/json, text/event-stream',
                  'MCP-Protocol-Version': '2025-06-18',
                  'X-LinkShort-Api-Key': key,
                },
                body: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}',
              }).then(async (answer) => (await answer.text(), answer.status))
            : await submitSignIn(issuer, page, key).then(async (answer) => (await answer.text(), answer.status));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, (_, lane) => attacker(lane)));
    const checked = accountReads() - readsBefore;
    const bound = ADDRESS_BOUND.burst + ADDRESS_BOUND.perMinute;
    const answered = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${count} x ${status}`)
      .join(', ');
    return [
      {
        figure: `18. sign-in failures checked with the service in a minute, one address flooding ${AT_ONCE} at a time (header and one sign-in page; answered ${answered})`,
        measured: `${checked} checked`,
        baseline: `${sent} sent`,
        ratio: (checked / sent).toFixed(4),
        goal: `<= ${bound} (${ADDRESS_BOUND.burst} at once + ${ADDRESS_BOUND.perMinute}/min)`,
        met: checked <= bound && (statuses.get(401) ?? 0) === checked,
      },
    ];
  } finally {
    server.child.kill('SIGTERM');
    await sandbox.close();
  }
}
