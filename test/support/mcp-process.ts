/** The built `linkshort-mcp` as its own process on Streamable HTTP, for the MCP server's tests and the bench. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { warnIfStale } from './built.cjs';

export const MCP_CLI = join(__dirname, '../../packages/mcp/dist/cli.js');

// The CLI loads the client from its build too.
warnIfStale(['client', 'mcp']);

export interface McpHttpProcess {
  child: ChildProcess;
  /** The address the server says it listens at. */
  url: string;
  /** All it has written to stderr so far. */
  stderr: () => string;
}

/**
 * Starts the built server with `--http 0` and `args` at a free port, its environment only PATH, the
 * test's own clock (faketime's variables, when the suite runs a year ahead or behind) and `env`
 * (`LINKSHORT_BASE_URL`, `LINKSHORT_API_KEY`, …), and `nodeOptions` given to Node itself;
 * answers once it says where it listens, or fails with what it wrote if it exits first.
 */
/** faketime's variables, so that a server started by a test run a year ahead or behind shares its clock. */
function sameClock(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => /^(LD_PRELOAD|FAKETIME\w*|DONT_FAKE_MONOTONIC)$/.test(entry[0]) && entry[1] !== undefined,
    ),
  );
}

export async function startMcpHttpProcess(env: Record<string, string>, args: string[] = [], nodeOptions: string[] = []): Promise<McpHttpProcess> {
  const child = spawn(process.execPath, [...nodeOptions, MCP_CLI, '--http', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', ...sameClock(), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const address = /Streamable HTTP at (http:\/\/\S+)/.exec(stderr)?.[1];
      if (address) resolve(address);
    });
    child.once('exit', (code) => reject(new Error(`linkshort-mcp exited with ${code}: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}
