/** The sign-in page: plain HTML, no script, one form that posts back to this server. */
import type { Answer } from "./answer";
import { retryAfterHeader } from "./failure-throttle";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** No script, no frames, no outside resources; the page cannot be framed (clickjacking). */
const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with the form, and the sign-in refuses it.
  "Referrer-Policy": "same-origin",
  "Cache-Control": "no-store",
};

const STYLE =
  "body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}" +
  "input[type=password]{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem;font:inherit}" +
  ".problem{color:#a00}";

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`
  );
}

export interface SignInForm {
  /** Who asks: the client's name, else its id. */
  clientLabel: string;
  /** The service the key is for, as people know it. */
  serviceLabel: string;
  /** The signed authorization request, carried through the form. */
  request: string;
  /** The CSRF value, also in the sign-in cookie. */
  csrf: string;
  /** Why the last attempt was refused, when it was. */
  problem?: string;
  /** With a 429: the seconds until another key may be tried (Retry-After). */
  retryAfterSeconds?: number | undefined;
}

export function signInPage(status: number, form: SignInForm, cookie?: string): Answer {
  const problem = form.problem === undefined ? "" : `<p class="problem" role="alert">${escapeHtml(form.problem)}</p>`;
  const body =
    `<h1>Sign in to LinkShort</h1>` +
    `<p><strong>${escapeHtml(form.clientLabel)}</strong> asks to use your LinkShort account at ${escapeHtml(form.serviceLabel)} on your behalf.</p>` +
    problem +
    `<form method="post" action="/authorize">` +
    `<input type="hidden" name="request" value="${escapeHtml(form.request)}">` +
    `<input type="hidden" name="csrf_token" value="${escapeHtml(form.csrf)}">` +
    `<label for="api_key">Your API key (in the service's settings, under API)</label>` +
    `<input type="password" id="api_key" name="api_key" required autocomplete="off" spellcheck="false" maxlength="512">` +
    `<button type="submit">Sign in</button></form>` +
    `<p>The key stays on this server, encrypted; the application receives only short-lived tokens.</p>`;
  const headers = { ...PAGE_HEADERS, ...retryAfterHeader(form.retryAfterSeconds), ...(cookie !== undefined ? { "Set-Cookie": cookie } : {}) };
  return { status, headers, body: page("Sign in to LinkShort", body) };
}

/** A sign-in that cannot go on and must not be sent back to the client (an unknown client, a redirect URI it did not register). */
export function problemPage(status: number, problem: string): Answer {
  return {
    status,
    headers: PAGE_HEADERS,
    body: page("Cannot sign in", `<h1>Cannot sign in</h1><p class="problem">${escapeHtml(problem)}</p><p>Start again from the application.</p>`),
  };
}
