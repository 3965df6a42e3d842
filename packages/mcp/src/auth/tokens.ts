/**
 * The sign-in's tokens, all made with `jose`: access tokens are JWTs (HS256) bound to this
 * server's issuer and resource, naming the grant they belong to (whose revocation ends them); the
 * person's API key is kept wrapped (JWE, dir + A256GCM) in the grant, never in a token. Codes and
 * refresh tokens are random and opaque, kept by their SHA-256.
 */
import { compactDecrypt, CompactEncrypt, errors, jwtVerify, SignJWT } from "jose";
import { createHash, hkdfSync, randomBytes } from "node:crypto";
import { BoundedCache } from "./bounded-cache";

/** Access tokens live this long; a client refreshes them. */
export const ACCESS_TOKEN_SECONDS = 10 * 60;
/** A sign-in lasts this long without a new sign-in (refreshing does not extend it). */
export const GRANT_SECONDS = 30 * 24 * 60 * 60;
export const CODE_SECONDS = 60;
/** How long a sign-in page may stay open before it is submitted. */
const SIGN_IN_SECONDS = 15 * 60;

/** Where the tokens are checked: the issuer is the server's public address, the resource its MCP endpoint. */
export interface TokenSettings {
  issuer: string;
  resource: string;
  /** 32 bytes or more: signs the tokens and wraps the keys. */
  secret: Uint8Array;
}

/** What a valid access token says. */
export interface AccessClaims {
  grantId: string;
  accountId: string;
  clientId: string;
  scope: string;
  expiresAt: number;
}

export const randomToken = () => randomBytes(32).toString("base64url");
export const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");
export const nowSeconds = () => Math.floor(Date.now() / 1000);

const BEARER_CREDENTIAL = /(bearer\s+)[^\s"',;]+/gi;
/** A JWT or JWE (dot-separated parts) or a long run of base64url or hex: codes, refresh tokens, grant ids and most API keys look so. */
const SECRET_LIKE = /[A-Za-z0-9_-]{24,}(?:\.[A-Za-z0-9_-]*){0,4}/g;

/** A text nobody foresaw (a crash's message) with anything that may be a token or key of the sign-in's removed. */
export function redactSecrets(text: string): string {
  return text.replace(BEARER_CREDENTIAL, "$1[redacted]").replace(SECRET_LIKE, "[redacted]");
}

/** Access tokens whose signature was checked, kept till they expire (a client sends the same one with every request). */
const MAX_VERIFIED = 10_000;

export class TokenService {
  readonly #settings: TokenSettings;
  readonly #verified = new BoundedCache<string, AccessClaims>({ max: MAX_VERIFIED });
  readonly #signingKey: Uint8Array;
  readonly #wrappingKey: Uint8Array;

  constructor(settings: TokenSettings) {
    if (settings.secret.length < 32) throw new Error("the sign-in secret must be at least 32 bytes");
    this.#settings = settings;
    // One secret, two keys (HKDF): a signing key never doubles as an encryption key.
    this.#signingKey = new Uint8Array(hkdfSync("sha256", settings.secret, "", "linkshort-mcp signing", 32));
    this.#wrappingKey = new Uint8Array(hkdfSync("sha256", settings.secret, "", "linkshort-mcp key wrapping", 32));
  }

  get issuer(): string {
    return this.#settings.issuer;
  }

  get resource(): string {
    return this.#settings.resource;
  }

  async accessToken(claims: Omit<AccessClaims, "expiresAt">, lifetimeSeconds = ACCESS_TOKEN_SECONDS): Promise<string> {
    return new SignJWT({ client_id: claims.clientId, scope: claims.scope, sid: claims.grantId })
      .setProtectedHeader({ alg: "HS256", typ: "at+jwt" })
      .setIssuer(this.#settings.issuer)
      .setAudience(this.#settings.resource)
      .setSubject(claims.accountId)
      .setIssuedAt()
      .setExpirationTime(nowSeconds() + lifetimeSeconds)
      .setJti(randomToken())
      .sign(this.#signingKey);
  }

  /** The token's claims when it was signed here, for this resource, and has not expired; otherwise undefined. */
  async verifyAccessToken(token: string): Promise<AccessClaims | undefined> {
    const known = this.#verified.peek(token);
    if (known !== undefined && known.expiresAt > nowSeconds()) return known;
    const claims = await this.#verifyAccessToken(token);
    if (claims !== undefined) {
      this.#verified.set(token, claims);
    }
    return claims;
  }

  async #verifyAccessToken(token: string): Promise<AccessClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#signingKey, {
        algorithms: ["HS256"],
        typ: "at+jwt",
        issuer: this.#settings.issuer,
        audience: this.#settings.resource,
        requiredClaims: ["exp", "sub", "sid", "client_id"],
      });
      if (typeof payload.sid !== "string" || typeof payload.client_id !== "string") return undefined;
      return {
        grantId: payload.sid,
        accountId: payload.sub!,
        clientId: payload.client_id,
        scope: typeof payload.scope === "string" ? payload.scope : "",
        expiresAt: payload.exp!,
      };
    } catch (error) {
      if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
      throw error;
    }
  }

  /** A sign-in form's request, signed so that what comes back with the key is what was asked. */
  async signInRequest(fields: Record<string, string>): Promise<string> {
    return new SignJWT(fields)
      .setProtectedHeader({ alg: "HS256", typ: "signin+jwt" })
      .setIssuer(this.#settings.issuer)
      .setAudience(`${this.#settings.issuer}/authorize`)
      .setExpirationTime(nowSeconds() + SIGN_IN_SECONDS)
      .sign(this.#signingKey);
  }

  async verifySignInRequest(token: string): Promise<Record<string, unknown> | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#signingKey, {
        algorithms: ["HS256"],
        typ: "signin+jwt",
        issuer: this.#settings.issuer,
        audience: `${this.#settings.issuer}/authorize`,
      });
      return payload;
    } catch (error) {
      if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
      throw error;
    }
  }

  async wrapKey(apiKey: string): Promise<string> {
    return new CompactEncrypt(new TextEncoder().encode(apiKey)).setProtectedHeader({ alg: "dir", enc: "A256GCM" }).encrypt(this.#wrappingKey);
  }

  async unwrapKey(wrapped: string): Promise<string> {
    const { plaintext } = await compactDecrypt(wrapped, this.#wrappingKey, { keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: ["A256GCM"] });
    return new TextDecoder().decode(plaintext);
  }
}
