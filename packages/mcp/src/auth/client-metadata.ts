/**
 * What a client's registration or metadata document may say: its redirect URIs (which are
 * accepted, how one asked for matches one registered) and its name, each bounded.
 */
import { OAuthError, OAuthErrorCode } from "./oauth-error";
import { isLoopback } from "./request-checks";

const MAX_REDIRECT_URIS = 10;
/** All of a client's redirect URIs together, in UTF-8 (Cursor's three are under 150 bytes, VS Code's four about 100). */
export const MAX_REDIRECT_URI_BYTES = 2048;
const MAX_CLIENT_NAME = 100;
const UNSAFE_SCHEMES = new Set(["javascript:", "data:", "file:", "blob:", "about:", "vbscript:", "http:", "https:"]);

/** Whether a URI may receive codes: https, http to this machine (native apps), or an app's own scheme. No fragment. */
function isAcceptableRedirect(uri: string): boolean {
  if (uri.length > 2000) return false;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash !== "" || uri.includes("#")) return false;
  if (url.protocol === "https:") return true;
  if (url.protocol === "http:") return isLoopback(url.hostname);
  return !UNSAFE_SCHEMES.has(url.protocol);
}

/** Exact match, except that a loopback redirect may use any port (RFC 8252 §7.3). */
export function redirectMatches(registered: readonly string[], asked: string): boolean {
  if (registered.includes(asked)) return true;
  let url: URL;
  try {
    url = new URL(asked);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" || !isLoopback(url.hostname)) return false;
  url.port = "";
  return registered.some((uri) => {
    const candidate = new URL(uri);
    if (candidate.protocol !== "http:" || !isLoopback(candidate.hostname)) return false;
    candidate.port = "";
    return candidate.href === url.href;
  });
}

export function redirectUrisOf(metadata: Record<string, unknown>): string[] {
  const uris = metadata.redirect_uris;
  if (
    !Array.isArray(uris) ||
    uris.length === 0 ||
    uris.length > MAX_REDIRECT_URIS ||
    !uris.every((uri) => typeof uri === "string" && isAcceptableRedirect(uri))
  ) {
    throw new OAuthError(
      OAuthErrorCode.InvalidRedirectUri,
      `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs, each https, http to localhost, or an app's own scheme, without a fragment`,
    );
  }
  if (uris.reduce((bytes: number, uri: string) => bytes + Buffer.byteLength(uri), 0) > MAX_REDIRECT_URI_BYTES) {
    throw new OAuthError(OAuthErrorCode.InvalidRedirectUri, `redirect_uris may hold at most ${MAX_REDIRECT_URI_BYTES} bytes in all`);
  }
  const method = metadata.token_endpoint_auth_method;
  if (method !== undefined && method !== "none")
    throw new OAuthError(
      OAuthErrorCode.InvalidClientMetadata,
      'token_endpoint_auth_method must be "none": this server issues no client secrets (PKCE protects the code)',
    );
  for (const grant of Array.isArray(metadata.grant_types) ? (metadata.grant_types as unknown[]) : []) {
    if (grant !== "authorization_code" && grant !== "refresh_token")
      throw new OAuthError(
        OAuthErrorCode.InvalidClientMetadata,
        `grant_types may hold authorization_code and refresh_token only, not ${String(grant).slice(0, 50)}`,
      );
  }
  return uris as string[];
}

export const clientNameOf = (metadata: Record<string, unknown>) =>
  typeof metadata.client_name === "string" ? { clientName: metadata.client_name.slice(0, MAX_CLIENT_NAME) } : {};

/** Whether a client_id names a metadata document (kept by `client-documents.ts`, not by the store). */
export const isDocumentClientId = (clientId: string) => /^https?:\/\//.test(clientId);
