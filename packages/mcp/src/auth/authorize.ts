/**
 * The authorization endpoint (OAuth 2.1, authorization code with PKCE S256 only): GET shows the
 * sign-in page for a checked request; POST takes the person's API key from that page, checks it
 * with the service, and sends the person back to the client with a one-time code and `iss`
 * (RFC 9207). The page is guarded three ways: the request it carries is signed, its CSRF value
 * must match the sign-in cookie, and the POST must come from this server's own origin.
 */
import { cookiesOf, formOf, redirectAnswer, type Answer, type SignInRequest } from "./answer";
import { redirectMatches, type ClientRegistry } from "./clients";
import { OAuthError, OAuthErrorCode } from "./oauth-error";
import { sameSecret } from "./request-checks";
import { checkResource } from "./resource";
import { problemPage, signInPage } from "./sign-in-page";
import type { AuthStore } from "./store";
import { CODE_SECONDS, GRANT_SECONDS, nowSeconds, randomToken, sha256, type TokenService } from "./tokens";

/** What the service said of a key pasted into the sign-in page. */
export type KeyCheck = { accepted: true; accountId: string } | { accepted: false; problem: string; status: number; retryAfterSeconds?: number };

export interface AuthorizeContext {
  tokens: TokenService;
  store: AuthStore;
  clients: ClientRegistry;
  /** Asks the service whether the key is good (`GET /api/account`), within the failures allowed to the client's address and this sign-in page. */
  checkKey: (apiKey: string, asker: { address: string; page: string }) => Promise<KeyCheck>;
  serviceLabel: string;
  /** The origins the sign-in page is served at: the issuer's, and with the default loopback issuer, the same port by each loopback name. */
  ownOrigins: readonly string[];
  /** Whether the public address was set (--public-url), for the advice when a page comes from elsewhere. */
  publicUrlSet: boolean;
  /** The forms of `resource` that name this server (`resource.ts`). */
  resourceNames: ReadonlySet<string>;
}

const COOKIE = "linkshort_sign_in";
export const SCOPE = "linkshort";
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** The request's fields, as the sign-in form carries them signed. */
type SignInFields = { client_id: string; redirect_uri: string; code_challenge: string; state: string; csrf: string; client_label: string };

/** What the person (or whoever set the application up) needs to mend a redirect URI the client did not register: both addresses. */
function unregisteredRedirect(registered: readonly string[], asked: string): string {
  const shown = (uri: string) => (uri.length > 200 ? `${uri.slice(0, 200)}…` : uri);
  const said =
    asked === ""
      ? "did not say where to send you back (redirect_uri), and it registered more than one address"
      : `asked to send you back to ${shown(asked)}, an address it did not register (redirect_uri)`;
  // Exact matching is a security rule (a code must reach only an address the client registered): the application must register the address it uses.
  return `The application ${said}. It registered only ${registered.map(shown).join(", ")}. Register the address the application signs in with, or sign in from the address it registered.`;
}

/** The sign-in page for the request in `query`, asked for from the client at `address`. */
export async function showSignIn(context: AuthorizeContext, query: URLSearchParams, address: string): Promise<Answer> {
  const clientId = query.get("client_id") ?? "";
  let client;
  try {
    client = await context.clients.find(clientId, address);
  } catch (error) {
    if (error instanceof OAuthError) return problemPage(400, `The application is not known here: ${error.message}.`);
    throw error;
  }
  const asked = query.get("redirect_uri") ?? (client.redirectUris.length === 1 ? client.redirectUris[0]! : "");
  if (!redirectMatches(client.redirectUris, asked)) return problemPage(400, unregisteredRedirect(client.redirectUris, asked));
  // From here, problems go back to the client, which can tell the person.
  const state = query.get("state") ?? undefined;
  const refuse = (error: string, description: string) => redirectAnswer(asked, { error, error_description: description, state, iss: context.tokens.issuer });
  if (query.get("response_type") !== "code") return refuse(OAuthErrorCode.UnsupportedResponseType, "response_type must be code");
  const challenge = query.get("code_challenge") ?? "";
  if (query.get("code_challenge_method") !== "S256" || !PKCE_CHALLENGE.test(challenge)) {
    return refuse(OAuthErrorCode.InvalidRequest, "PKCE is required: code_challenge (43 characters) with code_challenge_method S256");
  }
  try {
    checkResource(context.resourceNames, context.tokens.resource, query.get("resource"));
  } catch (error) {
    if (error instanceof OAuthError) return refuse(error.code, error.message);
    throw error;
  }
  const csrf = randomToken();
  const fields: SignInFields = {
    client_id: client.clientId,
    redirect_uri: asked,
    code_challenge: challenge,
    state: state ?? "",
    csrf,
    client_label: client.clientName ?? client.clientId,
  };
  const secure = context.tokens.issuer.startsWith("https:") ? "; Secure" : "";
  const cookie = `${COOKIE}=${csrf}; Path=/authorize; HttpOnly; SameSite=Strict; Max-Age=900${secure}`;
  return signInPage(
    200,
    { clientLabel: fields.client_label, serviceLabel: context.serviceLabel, request: await context.tokens.signInRequest(fields), csrf },
    cookie,
  );
}

/** The origin a form post comes from (by Origin, else Referer), or whether the browser said it is this page's own (Sec-Fetch-Site). */
function originOf(request: SignInRequest): string | boolean {
  const { origin, referer } = request.headers;
  if (origin !== undefined) return origin;
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined) return site === "same-origin";
  try {
    return referer !== undefined && new URL(referer).origin;
  } catch {
    return false;
  }
}

/** Why a form post from elsewhere is refused, with what to do when it is this very server reached by another address. */
function notOwnPage(context: AuthorizeContext, from: string | boolean): string {
  const refused = "This sign-in did not come from this server's own page.";
  if (typeof from !== "string" || !/^https?:\/\/[^/]+$/.test(from)) return refused;
  const setting = context.publicUrlSet ? "its --public-url is" : "without --public-url it takes its address to be";
  return `${refused} If you opened this server at ${from}, note that ${setting} ${context.tokens.issuer}: open it there, or start it with --public-url set to the address people use.`;
}

export async function completeSignIn(context: AuthorizeContext, request: SignInRequest): Promise<Answer> {
  const from = originOf(request);
  if (from !== true && (typeof from !== "string" || !context.ownOrigins.includes(from))) return problemPage(403, notOwnPage(context, from));
  const form = formOf(request);
  const signed = await context.tokens.verifySignInRequest(form.get("request") ?? "");
  if (signed === undefined) return problemPage(400, "This sign-in page has expired or was altered. Start again from the application.");
  const fields = signed as unknown as SignInFields;
  const cookie = cookiesOf(request.headers).get(COOKIE) ?? "";
  const csrf = form.get("csrf_token") ?? "";
  if (!sameSecret(csrf, fields.csrf) || !sameSecret(cookie, fields.csrf)) {
    return problemPage(403, "This sign-in could not be confirmed as yours (its CSRF value does not match). Start again from the application.");
  }
  const apiKey = (form.get("api_key") ?? "").trim();
  const again = (status: number, problem: string, retryAfterSeconds?: number) =>
    signInPage(status, {
      clientLabel: fields.client_label,
      serviceLabel: context.serviceLabel,
      request: form.get("request")!,
      csrf,
      problem,
      retryAfterSeconds,
    });
  if (apiKey === "" || apiKey.length > 512 || /\s/.test(apiKey)) return again(400, "Paste your API key: one word, without spaces.");
  const check = await context.checkKey(apiKey, { address: request.address, page: fields.csrf });
  if (!check.accepted) return again(check.status, check.problem, check.retryAfterSeconds);
  const code = randomToken();
  const now = nowSeconds();
  await context.clients.signedIn(fields.client_id, now);
  const grant = {
    id: randomToken(),
    clientId: fields.client_id,
    accountId: check.accountId,
    wrappedKey: await context.tokens.wrapKey(apiKey),
    scope: SCOPE,
    resource: context.tokens.resource,
    expiresAt: now + GRANT_SECONDS,
  };
  await context.store.saveCode(sha256(code), { grant, redirectUri: fields.redirect_uri, codeChallenge: fields.code_challenge, expiresAt: now + CODE_SECONDS });
  const forgetCookie = { "Set-Cookie": `${COOKIE}=; Path=/authorize; HttpOnly; SameSite=Strict; Max-Age=0` };
  return redirectAnswer(fields.redirect_uri, { code, state: fields.state === "" ? undefined : fields.state, iss: context.tokens.issuer }, forgetCookie);
}
