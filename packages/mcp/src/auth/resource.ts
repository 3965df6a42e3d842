/**
 * Which `resource` values (RFC 8707) name this server. Clients write it in several ways: the MCP
 * endpoint's URL (the canonical one, which tokens carry as their audience), its origin, either
 * with a trailing slash (Claude Code sends the origin with one), and, with the default loopback
 * issuer, any of these by each loopback name (a client configured with `http://localhost:PORT/mcp`
 * for a server whose issuer is `http://127.0.0.1:PORT`). Anything else (another path, a query,
 * another host or port) is another resource and is refused.
 */
import { OAuthError, OAuthErrorCode } from "./oauth-error";

const MAX_RESOURCE_LENGTH = 2000;

/** The forms of the resource accepted for these origins (each one as WHATWG URL writes it). */
export function resourceNames(origins: readonly string[]): ReadonlySet<string> {
  const names = new Set<string>();
  for (const origin of origins) for (const path of ["/", "/mcp", "/mcp/"]) names.add(new URL(path, origin).href);
  return names;
}

function normalised(resource: string): string | undefined {
  if (resource.length > MAX_RESOURCE_LENGTH) return undefined;
  try {
    return new URL(resource).href;
  } catch {
    return undefined;
  }
}

/** Refuses a `resource` that is given and names no form of this server (`invalid_target`). */
export function checkResource(names: ReadonlySet<string>, canonical: string, resource: string | null | undefined): void {
  if (resource === null || resource === undefined) return;
  const href = normalised(resource);
  if (href === undefined || !names.has(href)) throw new OAuthError(OAuthErrorCode.InvalidTarget, `resource must be this server's MCP endpoint, ${canonical}`);
}
