/**
 * The token endpoint (authorization code with PKCE; refresh tokens rotated on every use, a replayed
 * one ending its whole sign-in) and revocation (RFC 7009). Clients are public: they prove
 * themselves with the PKCE verifier and their client_id, never a secret.
 */
import { createHash } from "node:crypto";
import { jsonAnswer, type Answer } from "./answer";
import { OAuthError, OAuthErrorCode } from "./oauth-error";
import { sameSecret } from "./request-checks";
import { checkResource } from "./resource";
import type { AuthStore, Grant, PendingCode } from "./store";
import { ACCESS_TOKEN_SECONDS, nowSeconds, randomToken, sha256, type TokenService } from "./tokens";

const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export interface TokenContext {
  tokens: TokenService;
  store: AuthStore;
  /** The forms of `resource` that name this server (`resource.ts`). */
  resourceNames: ReadonlySet<string>;
}

function required(form: Map<string, string>, name: string): string {
  const value = form.get(name);
  if (value === undefined || value === "") throw new OAuthError(OAuthErrorCode.InvalidRequest, `${name} is required`);
  return value;
}

function verifierMatches(verifier: string, challenge: string): boolean {
  if (!PKCE_VERIFIER.test(verifier)) return false;
  return sameSecret(createHash("sha256").update(verifier).digest("base64url"), challenge);
}

async function issue(context: TokenContext, grant: Grant, replacesHash?: string): Promise<Answer> {
  const refreshToken = randomToken();
  await context.store.saveRefreshToken(sha256(refreshToken), grant.id, grant.expiresAt, replacesHash);
  const accessToken = await context.tokens.accessToken({ grantId: grant.id, accountId: grant.accountId, clientId: grant.clientId, scope: grant.scope });
  return jsonAnswer(
    200,
    { access_token: accessToken, token_type: "Bearer", expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refreshToken, scope: grant.scope },
    { Pragma: "no-cache" },
  );
}

const invalidGrant = (description: string) => new OAuthError(OAuthErrorCode.InvalidGrant, description);

/** Why a pending code may not be exchanged with these fields, or undefined. */
function codeProblem(pending: PendingCode, clientId: string, redirectUri: string | undefined, verifier: string): string | undefined {
  if (pending.grant.clientId !== clientId) return "this code was issued to another client";
  // The authorization request's URI exactly (RFC 6749 4.1.3), not any loopback port as at registration.
  if (redirectUri !== undefined && redirectUri !== pending.redirectUri) return "redirect_uri differs from the authorization request's";
  if (!verifierMatches(verifier, pending.codeChallenge)) return "code_verifier does not match the code_challenge";
  return undefined;
}

async function exchangeCode(context: TokenContext, form: Map<string, string>): Promise<Answer> {
  const code = required(form, "code");
  const clientId = required(form, "client_id");
  const verifier = required(form, "code_verifier");
  checkResource(context.resourceNames, context.tokens.resource, form.get("resource"));
  const hash = sha256(code);
  const now = nowSeconds();
  // The grant is saved before the code is taken: a redemption answered "already used" revokes the
  // grant after its own save, so after every save, and no token of the code outlives that answer.
  const peeked = await context.store.peekCode(hash, now);
  const pending = peeked.state === "fresh" ? peeked.value : undefined;
  const problem = pending === undefined ? undefined : codeProblem(pending, clientId, form.get("redirect_uri"), verifier);
  if (pending !== undefined && problem === undefined) await context.store.saveGrant(pending.grant);
  const taken = await context.store.takeCode(hash, now);
  if (taken.state === "used") {
    // A code used twice was stolen or replayed: the tokens the first use got end too (OAuth 2.1 §4.1.3).
    await context.store.revokeGrant(taken.grantId);
    throw invalidGrant("this code was already used");
  }
  if (taken.state === "unknown" || pending === undefined) {
    if (pending !== undefined && problem === undefined) await context.store.revokeGrant(pending.grant.id);
    throw invalidGrant("this code is unknown or expired");
  }
  if (problem !== undefined) throw invalidGrant(problem);
  return issue(context, pending.grant);
}

async function refresh(context: TokenContext, form: Map<string, string>): Promise<Answer> {
  const token = required(form, "refresh_token");
  const clientId = required(form, "client_id");
  checkResource(context.resourceNames, context.tokens.resource, form.get("resource"));
  const now = nowSeconds();
  const hash = sha256(token);
  const taken = await context.store.takeRefreshToken(hash, now);
  if (taken.state === "used") {
    // Rotated tokens are used once: a second use means two holders, so the sign-in ends for both.
    await context.store.revokeGrant(taken.grantId);
    throw invalidGrant("this refresh token was already used; sign in again");
  }
  if (taken.state === "unknown") throw invalidGrant("this refresh token is unknown or expired");
  const grant = await context.store.grant(taken.value, now);
  if (grant === undefined) throw invalidGrant("this sign-in has ended; sign in again");
  if (grant.clientId !== clientId) {
    await context.store.revokeGrant(grant.id);
    throw invalidGrant("this refresh token was issued to another client");
  }
  return issue(context, grant, hash);
}

export async function tokenEndpoint(context: TokenContext, form: Map<string, string>): Promise<Answer> {
  const grantType = required(form, "grant_type");
  if (grantType === "authorization_code") return exchangeCode(context, form);
  if (grantType === "refresh_token") return refresh(context, form);
  throw new OAuthError(OAuthErrorCode.UnsupportedGrantType, "grant_type must be authorization_code or refresh_token");
}

/** RFC 7009: ends the sign-in a token belongs to (its access and refresh tokens alike). Answers 200 whatever the token. */
export async function revocationEndpoint(context: TokenContext, form: Map<string, string>): Promise<Answer> {
  const token = required(form, "token");
  const clientId = form.get("client_id");
  const claims = await context.tokens.verifyAccessToken(token);
  if (claims !== undefined) {
    if (clientId === undefined || clientId === claims.clientId) await context.store.revokeGrant(claims.grantId);
  } else {
    const taken = await context.store.takeRefreshToken(sha256(token), nowSeconds());
    const grantId = taken.state === "fresh" ? taken.value : taken.state === "used" ? taken.grantId : undefined;
    const grant = grantId === undefined ? undefined : await context.store.grant(grantId, nowSeconds());
    if (grant !== undefined && (clientId === undefined || clientId === grant.clientId)) await context.store.revokeGrant(grant.id);
  }
  return { status: 200, headers: { "Cache-Control": "no-store", "Access-Control-Allow-Origin": "*" }, body: "" };
}
