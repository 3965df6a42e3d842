#!/usr/bin/env node
import { STDIO_DEFAULT_MAX_BUFFER_SIZE, type Server } from "@modelcontextprotocol/server";
import { serveStdio as serveOverStdio } from "@modelcontextprotocol/server/stdio";
import { accountStateFrom } from "./account/state-from";
import { isLoopback, LOOPBACK_NAMES } from "./auth/request-checks";
import { API_KEY_VARIABLE, clientFromEnvironment, ConfigError, parseCommandLine, TOKEN_VARIABLE, tokenFrom } from "./config/command-line";
import { USAGE } from "./config/usage";
import { keyIsAdministrators } from "./auth/key-role";
import { createLinkShortMcpServer } from "./server/server";
import { logUnexpectedFailures } from "./failures/unexpected";

// A stdio server is spawned for every conversation: what only --http, --sign-in or --store use (the
// HTTP server, the sign-in and its jose, the shared store and its pg) is imported when asked for.

/** The base URL as logs may show it: without a user name or password. */
function shown(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    if (url.username === "" && url.password === "") return baseUrl;
    url.username = "";
    url.password = "";
    return url.toString().replace(/\/$/, "");
  } catch {
    return "the configured base URL";
  }
}

// stdout carries the protocol over stdio: everything for people goes to stderr.
const say = (text: string) => process.stderr.write(`linkshort-mcp: ${text}\n`);

/**
 * Serves over stdin and stdout, a 2026-07-28 client or a 2025-era one (whose `initialize` pins the
 * connection to that era). The SDK's transport stops reading at a line over 10 MiB and closes; the
 * process then ends with status 1 and the reason, rather than leave the MCP client guessing.
 */
function serveStdio(create: () => Server, stop: () => void): void {
  // The MCP client closing stdin ends the session: the background sync must not keep the process alive.
  process.stdin.once("end", stop);
  serveOverStdio(create, {
    onerror: (error) => {
      if (!error.message.slice(0, 200).includes("exceeded maximum size")) return;
      say(
        `a message from the MCP client is larger than ${STDIO_DEFAULT_MAX_BUFFER_SIZE / 1024 / 1024} MiB, the most this server reads over stdio; stopping. Send smaller arguments.`,
      );
      process.exit(1);
    },
  });
}

async function main(): Promise<void> {
  const commandLine = parseCommandLine(process.argv.slice(2));
  if (commandLine.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (commandLine.http?.signIn !== undefined) return (await import("./server/serve-sign-in")).serveSignIn(commandLine, commandLine.http.signIn, say, shown);
  const configured = clientFromEnvironment(process.env, commandLine.maxWaitSeconds);
  const state = await accountStateFrom(process.env, commandLine, say);
  const client = state.clientFor(configured.baseUrl, process.env[API_KEY_VARIABLE]!, commandLine.maxWaitSeconds);
  const redact = (text: string) => client.redact(text);
  logUnexpectedFailures(say, redact);

  const admin = commandLine.admin && (await keyIsAdministrators(client, say));
  const linkIndex = state.indexFor(client);
  const requestStateKey = await state.secret("request-state");
  const create = () =>
    createLinkShortMcpServer({ client, admin, callDeadlineMs: commandLine.deadlineSeconds * 1000, linkIndex, ...(requestStateKey ? { requestStateKey } : {}) });
  let stopping = false;
  const stopThen = (beforeExit: () => Promise<void>) => () => {
    if (stopping) return;
    stopping = true;
    // Bounded: a store that cannot be released does not hold the process.
    const bounded = new Promise<void>((resolve) => setTimeout(resolve, 3000).unref());
    void Promise.race([Promise.all([beforeExit(), state.close()]), bounded]).finally(() => process.exit(0));
  };
  const indexing = `indexing the account's links for find_links and sampling their clicks in the background (${state.keptIn})`;
  const tools = admin ? "with the admin tools" : "without the admin tools (--admin adds them)";
  if (commandLine.http) {
    const { host, port, allowedHosts, tokenFile } = commandLine.http;
    const token = tokenFrom(process.env, tokenFile);
    const { startHttpServer } = await import("./server/http");
    const beyondLoopback = !isLoopback(host);
    if (beyondLoopback && token === undefined) {
      throw new ConfigError(
        `--host ${host} serves beyond this machine: set a bearer token in ${TOKEN_VARIABLE} or --token-file PATH (at least 16 characters), which every request must carry`,
      );
    }
    const server = await startHttpServer(create, { host, port, allowedHosts, redact, ...(token !== undefined ? { token } : {}) });
    if (beyondLoopback) {
      const names = [...LOOPBACK_NAMES, ...allowedHosts].join(", ");
      say(
        `WARNING: listening on ${host}, beyond this machine: anyone who can reach port ${port} and holds the token acts as this LinkShort account. Host names accepted: ${names}.`,
      );
      if (admin) {
        say(
          `WARNING: with --admin on ${host}, anyone holding the token can also create and delete users and change their plans. Serve the admin tools on loopback only unless you mean this.`,
        );
      }
    }
    say(`serving ${shown(client.baseUrl)} over Streamable HTTP at ${server.url} ${tools}; ${indexing}`);
    const stop = stopThen(() => server.close());
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  } else {
    const stop = stopThen(() => Promise.resolve());
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    serveStdio(create, stop);
    say(`serving ${shown(client.baseUrl)} over stdio ${tools}; ${indexing}`);
  }
  void linkIndex.startFirstSync();
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    say(error.message);
    process.stderr.write(`\n${USAGE}`);
  } else {
    say(`could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exitCode = 1;
});
