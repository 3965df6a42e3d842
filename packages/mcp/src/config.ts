/** The server's configuration: the service and key from the environment, the rest from the command line. */
import { LinkShortClient, ValidationError } from "@linkshort/client";
import { parseArgs } from "node:util";

export const BASE_URL_VARIABLE = "LINKSHORT_BASE_URL";
export const API_KEY_VARIABLE = "LINKSHORT_API_KEY";
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
  /** Serve Streamable HTTP on this port instead of stdio. */
  http?: { port: number; host: string };
}

export const USAGE = `Usage: linkshort-mcp [--admin] [--max-wait SECONDS] [--http PORT [--host HOST]]

An MCP server for a Link-Shortening Service API v3 (LinkShort) account. Configuration:
  ${BASE_URL_VARIABLE}   the service's address, e.g. https://short.example.com (required)
  ${API_KEY_VARIABLE}    the account's API key (required)

  --http PORT           serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio
  --host HOST           the address to bind with --http (default 127.0.0.1)
  --admin               also offer the administrators' tools (plans, users)
  --max-wait SECONDS    longest wait for the rate limit before a tool answers "retry after N s" (default ${DEFAULT_MAX_WAIT_SECONDS})
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
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
  const port = wholeNumber(values.http, "--http", 0, 65535);
  if (values.host !== undefined && port === undefined) throw new ConfigError("--host needs --http PORT");
  return {
    help: values.help,
    admin: values.admin,
    maxWaitSeconds: wholeNumber(values["max-wait"], "--max-wait", 0, 3600) ?? DEFAULT_MAX_WAIT_SECONDS,
    ...(port !== undefined ? { http: { port, host: values.host ?? "127.0.0.1" } } : {}),
  };
}

const VARIABLE_OF_FIELD: Record<string, string> = { baseUrl: BASE_URL_VARIABLE, apiKey: API_KEY_VARIABLE };

/** The client for the service named in the environment; the client itself judges the values. */
export function clientFromEnvironment(env: NodeJS.ProcessEnv, maxWaitSeconds: number): LinkShortClient {
  const baseUrl = env[BASE_URL_VARIABLE] ?? "";
  const apiKey = env[API_KEY_VARIABLE] ?? "";
  try {
    return new LinkShortClient({ baseUrl, apiKey, rateLimit: { maxWaitMs: maxWaitSeconds * 1000 }, userAgent: "linkshort-mcp" });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const problems = error.issues.map((issue) => {
      const variable = VARIABLE_OF_FIELD[issue.field] ?? issue.field;
      return env[variable] === undefined || env[variable] === "" ? `${variable} is not set` : `${variable} ${issue.message}`;
    });
    throw new ConfigError(`${problems.join("; ")}. Set ${BASE_URL_VARIABLE} (e.g. https://short.example.com) and ${API_KEY_VARIABLE} in the MCP client's configuration.`);
  }
}
