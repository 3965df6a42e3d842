/** The server's configuration: the service and key from the environment, the rest from the command line. */
import { LinkShortClient, ValidationError } from "@linkshort/client";
import { readFileSync, statSync } from "node:fs";
import { isIP } from "node:net";
import { homedir } from "node:os";
import { parseArgs } from "node:util";

export const BASE_URL_VARIABLE = "LINKSHORT_BASE_URL";
export const API_KEY_VARIABLE = "LINKSHORT_API_KEY";
/** The bearer token HTTP clients must send; required to serve beyond loopback. */
export const TOKEN_VARIABLE = "LINKSHORT_MCP_TOKEN";
/** Where the link index is kept between runs (memory when unset). */
export const INDEX_FILE_VARIABLE = "LINKSHORT_MCP_INDEX_FILE";
const MIN_TOKEN_LENGTH = 16;
/** The longest one tool call may take before it answers with a tool error (clients give up at 60 s). */
export const DEFAULT_DEADLINE_SECONDS = 25;
/** One attempt's limit: short enough that a retry fits within a tool call's deadline. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** How long one tool call may wait for the rate limit before it answers "retry after N s". */
export const DEFAULT_MAX_WAIT_SECONDS = 20;

/** A configuration mistake, worded for the person who wrote the configuration. Never holds the key. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export interface CommandLine {
  help: boolean;
  admin: boolean;
  maxWaitSeconds: number;
  deadlineSeconds: number;
  /** Keep the link index in this file (a snapshot, with a journal and a lock beside it). */
  indexFile?: string;
  /** Serve Streamable HTTP on this port instead of stdio. */
  http?: { port: number; host: string; allowedHosts: string[]; tokenFile?: string };
}

export const USAGE = `Usage: linkshort-mcp [--admin] [--max-wait SECONDS] [--deadline SECONDS] [--index-file PATH]
                     [--http PORT [--host HOST] [--allowed-host NAME]... [--token-file PATH]]

An MCP server for a Link-Shortening Service API v3 (LinkShort) account. Configuration:
  ${BASE_URL_VARIABLE}   the service's address, e.g. https://short.example.com (required)
  ${API_KEY_VARIABLE}    the account's API key (required)

  --http PORT           serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio
  --host HOST           the address to bind with --http (default 127.0.0.1); beyond loopback
                        (e.g. 0.0.0.0 in a container) only with a bearer token
  --allowed-host NAME   a host name clients may address besides localhost, 127.0.0.1 and [::1]
                        (e.g. mcp.team.example); repeat for several
  --token-file PATH     the bearer token every HTTP request must carry, read from this file
  ${TOKEN_VARIABLE}   the same token from the environment (the file wins)
  --admin               also offer the administrators' tools (plans, users)
  --max-wait SECONDS    longest wait for the rate limit before a tool answers "retry after N s" (default ${DEFAULT_MAX_WAIT_SECONDS})
  --deadline SECONDS    longest a tool call may take before it answers with an error (default ${DEFAULT_DEADLINE_SECONDS})
  --index-file PATH     keep the index of the account's links that find_links searches in this file, so a
                        restart does not read the account again (default: memory; the desktop bundle
                        keeps it in ~/.linkshort-mcp/link-index.json)
  ${INDEX_FILE_VARIABLE}  the same path from the environment (the flag wins)
`;

function wholeNumber(text: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new ConfigError(`${flag} must be a whole number from ${min} to ${max}, not "${text}"`);
  return value;
}

export function parseCommandLine(argv: string[]): CommandLine {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        http: { type: "string" },
        host: { type: "string" },
        admin: { type: "boolean", default: false },
        "max-wait": { type: "string" },
        deadline: { type: "string" },
        "allowed-host": { type: "string", multiple: true },
        "token-file": { type: "string" },
        "index-file": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
  const port = wholeNumber(values.http, "--http", 0, 65535);
  for (const flag of ["host", "allowed-host", "token-file"] as const) {
    if (values[flag] !== undefined && port === undefined) throw new ConfigError(`--${flag} needs --http PORT`);
  }
  const allowedHosts = (values["allowed-host"] ?? []).map((name) => {
    if (!/^[A-Za-z0-9.-]{1,253}$/.test(name) && isIP(name) === 0) throw new ConfigError(`--allowed-host must be a host name or IP address, not "${name.slice(0, 100)}"`);
    return name.toLowerCase();
  });
  return {
    help: values.help,
    admin: values.admin,
    maxWaitSeconds: wholeNumber(values["max-wait"], "--max-wait", 0, 3600) ?? DEFAULT_MAX_WAIT_SECONDS,
    deadlineSeconds: wholeNumber(values.deadline, "--deadline", 1, 300) ?? DEFAULT_DEADLINE_SECONDS,
    ...(values["index-file"] !== undefined ? { indexFile: indexFilePath(values["index-file"], "--index-file") } : {}),
    ...(port !== undefined
      ? { http: { port, host: values.host ?? "127.0.0.1", allowedHosts, ...(values["token-file"] !== undefined ? { tokenFile: values["token-file"] } : {}) } }
      : {}),
  };
}

/**
 * A path as a person or a host wrote it: `~/` and `${HOME}` (as a desktop bundle's default says it,
 * when the host leaves it to the server) start at the home folder.
 */
function indexFilePath(path: string, source: string): string {
  if (path.trim() === "" || path.length > 4096 || path.includes("\0")) throw new ConfigError(`${source} must be a file path`);
  const home = /^(~|\$\{HOME\})(?=[/\\])/.exec(path);
  return home ? `${homedir()}${path.slice(home[0].length)}` : path;
}

/** The link index's file: --index-file, else the environment's; undefined keeps it in memory. */
export function indexFileFrom(env: NodeJS.ProcessEnv, commandLine: CommandLine): string | undefined {
  if (commandLine.indexFile !== undefined) return commandLine.indexFile;
  const fromEnv = env[INDEX_FILE_VARIABLE];
  return fromEnv === undefined || fromEnv === "" ? undefined : indexFilePath(fromEnv, INDEX_FILE_VARIABLE);
}

/** Warns on stderr, as the server's other start-up warnings do. */
const warnOnStderr = (text: string) => process.stderr.write(`linkshort-mcp: WARNING: ${text}\n`);

/**
 * The bearer token for HTTP: from --token-file, else from the environment; undefined when neither
 * is set. A token file that yields no token (empty, blank, unreadable) is a mistake on every bind,
 * never "no authentication"; one that other users may read is served with a warning.
 */
export function tokenFrom(env: NodeJS.ProcessEnv, tokenFile: string | undefined, warn: (text: string) => void = warnOnStderr): string | undefined {
  let token = env[TOKEN_VARIABLE];
  let source = TOKEN_VARIABLE;
  if (tokenFile !== undefined) {
    try {
      token = readFileSync(tokenFile, "utf8").trim();
      source = `--token-file ${tokenFile}`;
    } catch (error) {
      throw new ConfigError(`--token-file: cannot read ${tokenFile} (${error instanceof Error && "code" in error ? String(error.code) : "error"})`);
    }
    if (token === "") throw new ConfigError(`--token-file ${tokenFile} holds no token: write the token into it (e.g. \`openssl rand -hex 32 > ${tokenFile}\`) or leave --token-file out`);
    if ((statSync(tokenFile).mode & 0o077) !== 0) warn(`--token-file ${tokenFile} is readable by other users of this machine: \`chmod 600 ${tokenFile}\``);
  }
  if (token === undefined || token === "") return undefined;
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new ConfigError(`the token from ${source} must be at least ${MIN_TOKEN_LENGTH} characters without spaces (e.g. from \`openssl rand -hex 32\`)`);
  }
  return token;
}

const VARIABLE_OF_FIELD: Record<string, string> = { baseUrl: BASE_URL_VARIABLE, apiKey: API_KEY_VARIABLE };

/** The client for the service named in the environment; the client itself judges the values. */
export function clientFromEnvironment(env: NodeJS.ProcessEnv, maxWaitSeconds: number): LinkShortClient {
  const baseUrl = env[BASE_URL_VARIABLE] ?? "";
  const apiKey = env[API_KEY_VARIABLE] ?? "";
  try {
    return new LinkShortClient({ baseUrl, apiKey, rateLimit: { maxWaitMs: maxWaitSeconds * 1000 }, timeoutMs: ATTEMPT_TIMEOUT_MS, userAgent: "linkshort-mcp" });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const problems = error.issues.map((issue) => {
      const variable = VARIABLE_OF_FIELD[issue.field] ?? issue.field;
      return env[variable] === undefined || env[variable] === "" ? `${variable} is not set` : `${variable} ${issue.message}`;
    });
    throw new ConfigError(`${problems.join("; ")}. Set ${BASE_URL_VARIABLE} (e.g. https://short.example.com) and ${API_KEY_VARIABLE} in the MCP client's configuration.`);
  }
}
