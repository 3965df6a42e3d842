/** The server's configuration: the service and key from the environment, the rest from the command line. */
import { isLinkShortError, LinkShortClient, type RateLimiter } from "@linkshort/client";
import { readFileSync, statSync } from "node:fs";
import { isIP } from "node:net";
import { homedir } from "node:os";
import { parseArgs } from "node:util";
import { TrustedProxies } from "../auth/client-address";
import { isLoopback } from "../auth/request-checks";

export const BASE_URL_VARIABLE = "LINKSHORT_BASE_URL";
export const API_KEY_VARIABLE = "LINKSHORT_API_KEY";
/** The bearer token HTTP clients must send; required to serve beyond loopback. */
export const TOKEN_VARIABLE = "LINKSHORT_MCP_TOKEN";
/** With --sign-in: the server's public address (issuer and resource of its tokens). */
export const PUBLIC_URL_VARIABLE = "LINKSHORT_MCP_PUBLIC_URL";
/** With --sign-in: the secret that signs tokens and wraps keys (at least 32 bytes, hex or base64); random when unset. */
export const SIGN_IN_SECRET_VARIABLE = "LINKSHORT_MCP_SIGN_IN_SECRET";
/** With --sign-in: the proxies in front whose X-Forwarded-For names the client (addresses or CIDR ranges, comma-separated). */
export const TRUSTED_PROXY_VARIABLE = "LINKSHORT_MCP_TRUSTED_PROXY";
/** Signs the previews that update_links and delete_links confirm (32+ bytes), so that any process of the server takes them. */
export const CONFIRMATION_SECRET_VARIABLE = "LINKSHORT_MCP_CONFIRMATION_SECRET";
/** Where the link index is kept between runs (memory when unset). */
export const INDEX_FILE_VARIABLE = "LINKSHORT_MCP_INDEX_FILE";
/** With --http: the shared store (a postgres:// URL) replicas keep the sign-ins, link indexes and coordination in. */
export const STORE_VARIABLE = "LINKSHORT_MCP_STORE";
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
  http?: { port: number; host: string; allowedHosts: string[]; tokenFile?: string; signIn?: SignInCommandLine; store?: string };
}

export interface SignInCommandLine {
  publicUrl?: string;
  /** For tests only: client metadata documents over http and from this machine. */
  allowLocalClientMetadata: boolean;
  /** --trusted-proxy: the proxies whose X-Forwarded-For names the client (checked entries). */
  trustedProxies?: string[];
}

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
        "sign-in": { type: "boolean", default: false },
        "public-url": { type: "string" },
        "trusted-proxy": { type: "string", multiple: true },
        store: { type: "string" },
        "allow-local-client-metadata": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
  const port = wholeNumber(values.http, "--http", 0, 65535);
  for (const flag of ["host", "allowed-host", "token-file", "public-url", "store"] as const) {
    if (values[flag] !== undefined && port === undefined) throw new ConfigError(`--${flag} needs --http PORT`);
  }
  if (values.store !== undefined && values["index-file"] !== undefined)
    throw new ConfigError("--index-file and --store exclude each other: with --store the link index is kept in the store");
  if (values["sign-in"] && port === undefined) throw new ConfigError("--sign-in needs --http PORT");
  for (const flag of ["public-url", "trusted-proxy", "allow-local-client-metadata"] as const) {
    if (!values["sign-in"] && values[flag] !== undefined && values[flag] !== false) throw new ConfigError(`--${flag} needs --sign-in`);
  }
  if (values["sign-in"] && values["token-file"] !== undefined)
    throw new ConfigError("--token-file and --sign-in exclude each other: with --sign-in everyone signs in with their own key");
  const signIn: SignInCommandLine | undefined = values["sign-in"]
    ? {
        allowLocalClientMetadata: values["allow-local-client-metadata"],
        ...(values["public-url"] !== undefined ? { publicUrl: publicUrl(values["public-url"], "--public-url") } : {}),
        ...(values["trusted-proxy"] !== undefined ? { trustedProxies: trustedProxyList(values["trusted-proxy"].join(","), "--trusted-proxy") } : {}),
      }
    : undefined;
  const allowedHosts = (values["allowed-host"] ?? []).map((name) => {
    if (!/^[A-Za-z0-9.-]{1,253}$/.test(name) && isIP(name) === 0)
      throw new ConfigError(`--allowed-host must be a host name or IP address, not "${name.slice(0, 100)}"`);
    return name.toLowerCase();
  });
  return {
    help: values.help,
    admin: values.admin,
    maxWaitSeconds: wholeNumber(values["max-wait"], "--max-wait", 0, 3600) ?? DEFAULT_MAX_WAIT_SECONDS,
    deadlineSeconds: wholeNumber(values.deadline, "--deadline", 1, 300) ?? DEFAULT_DEADLINE_SECONDS,
    ...(values["index-file"] !== undefined ? { indexFile: indexFilePath(values["index-file"], "--index-file") } : {}),
    ...(port !== undefined
      ? {
          http: {
            port,
            host: values.host ?? "127.0.0.1",
            allowedHosts,
            ...(values["token-file"] !== undefined ? { tokenFile: values["token-file"] } : {}),
            ...(signIn !== undefined ? { signIn } : {}),
            // Checked where it is opened (account/shared/state.ts).
            ...(values.store !== undefined ? { store: values.store } : {}),
          },
        }
      : {}),
  };
}

/** A public address: an origin (no path, query or user), https unless it names this machine. */
export function publicUrl(text: string, source: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${source} must be an address such as https://mcp.team.example, not "${text.slice(0, 100)}"`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))) {
    throw new ConfigError(`${source} must be an https address (OAuth needs TLS; http only for localhost), not "${url.origin}"`);
  }
  if ((url.pathname !== "/" && url.pathname !== "") || url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new ConfigError(`${source} must be the server's origin only (scheme, host and port), e.g. ${url.origin}: the MCP endpoint is its /mcp`);
  }
  return url.origin;
}

/** A list of trusted proxies (comma-separated addresses or CIDR ranges), each entry checked. */
export function trustedProxyList(text: string, source: string): string[] {
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  try {
    new TrustedProxies(entries);
  } catch (error) {
    throw new ConfigError(`${source}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return entries;
}

/** A secret from the environment (hex or base64, at least 32 bytes); undefined when unset. */
export function secretFrom(env: NodeJS.ProcessEnv, variable: string): Uint8Array | undefined {
  const text = env[variable];
  if (text === undefined || text === "") return undefined;
  const bytes = /^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0 ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (bytes.length < 32) throw new ConfigError(`${variable} must hold at least 32 bytes, hex or base64 (e.g. from \`openssl rand -hex 32\`)`);
  return new Uint8Array(bytes);
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
    if (token === "")
      throw new ConfigError(
        `--token-file ${tokenFile} holds no token: write the token into it (e.g. \`openssl rand -hex 32 > ${tokenFile}\`) or leave --token-file out`,
      );
    if ((statSync(tokenFile).mode & 0o077) !== 0) warn(`--token-file ${tokenFile} is readable by other users of this machine: \`chmod 600 ${tokenFile}\``);
  }
  if (token === undefined || token === "") return undefined;
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new ConfigError(`the token from ${source} must be at least ${MIN_TOKEN_LENGTH} characters without spaces (e.g. from \`openssl rand -hex 32\`)`);
  }
  return token;
}

const VARIABLE_OF_FIELD: Record<string, string> = { baseUrl: BASE_URL_VARIABLE, apiKey: API_KEY_VARIABLE };

/** A client of the service for one key, as the server makes them (paced by `limiter`, e.g. the replicas' shared budget, when given). */
export function clientFor(baseUrl: string, apiKey: string, maxWaitSeconds: number, limiter?: RateLimiter): LinkShortClient {
  const rateLimit = { maxWaitMs: maxWaitSeconds * 1000, ...(limiter ? { limiter } : {}) };
  return new LinkShortClient({ baseUrl, apiKey, rateLimit, timeoutMs: ATTEMPT_TIMEOUT_MS, userAgent: "linkshort-mcp" });
}

/**
 * The client for the service named in the environment; the client itself judges the values. With
 * --sign-in there is no key in the environment: the client is then only the base URL's check and
 * the maker of each person's client.
 */
export function clientFromEnvironment(env: NodeJS.ProcessEnv, maxWaitSeconds: number, signIn = false): LinkShortClient {
  const baseUrl = env[BASE_URL_VARIABLE] ?? "";
  const apiKey = signIn ? "sign-in-checks-the-base-url-only" : (env[API_KEY_VARIABLE] ?? "");
  try {
    return clientFor(baseUrl, apiKey, maxWaitSeconds);
  } catch (error) {
    if (!isLinkShortError(error, "LINKSHORT_INVALID_INPUT")) throw error;
    const problems = error.issues.map((issue) => {
      const variable = VARIABLE_OF_FIELD[issue.field] ?? issue.field;
      return env[variable] === undefined || env[variable] === "" ? `${variable} is not set` : `${variable} ${issue.message}`;
    });
    throw new ConfigError(
      `${problems.join("; ")}. Set ${BASE_URL_VARIABLE} (e.g. https://short.example.com) and ${API_KEY_VARIABLE} in the MCP client's configuration.`,
    );
  }
}

/** A store's address: a postgres:// URL, named in errors without its password. */
export function storeUrl(text: string, source: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "postgres:" && url.protocol !== "postgresql:") || url.hostname === "") {
    const shown = url === undefined ? "" : ` (it starts "${url.protocol}")`;
    throw new ConfigError(`${source} must be a Postgres URL such as postgres://linkshort:PASSWORD@db:5432/linkshort${shown}`);
  }
  return text;
}

/** The store's URL: --store, else the environment's (with --http only); undefined keeps the state in memory. */
export function storeFrom(env: NodeJS.ProcessEnv, commandLine: CommandLine): string | undefined {
  if (commandLine.http?.store !== undefined) return storeUrl(commandLine.http.store, "--store");
  const fromEnv = env[STORE_VARIABLE];
  if (fromEnv === undefined || fromEnv === "") return undefined;
  if (commandLine.http === undefined) throw new ConfigError(`${STORE_VARIABLE} needs --http PORT: over stdio the server is one process of one person`);
  return storeUrl(fromEnv, STORE_VARIABLE);
}
