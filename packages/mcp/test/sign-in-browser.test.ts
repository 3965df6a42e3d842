/**
 * The sign-in page in a real browser (Debian's chromium), as a person uses it: opened from the
 * application's authorization URL, the key typed in, the button pressed, with JavaScript on and
 * off. What a browser sends with the form (its Origin, cookies, Sec-Fetch-Site) is the browser's
 * own, not a test's guess.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import type { ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { launchBrowser } from "../../../test/charts/browser";
import { startHttpServerProcess } from "./helpers";
import { pkce } from "./sign-in-helpers";

let sandbox: Sandbox;
let server: ChildProcess;
let issuer: string;
let mcpUrl: string;
let stderr: () => string;
let browser: Browser;
/** The application's redirect URI, where it hears what the browser brings back. */
let application: Server;
let redirectUri: string;
const arrivals: URL[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
  ({ child: server, url: mcpUrl, stderr } = await startHttpServerProcess({ baseUrl: sandbox.baseUrl, apiKey: "" }, ["--sign-in"]));
  issuer = new URL(mcpUrl).origin;
  application = createServer((request, response) => {
    arrivals.push(new URL(request.url ?? "/", redirectUri));
    response.writeHead(200, { "Content-Type": "text/plain" }).end("signed in");
  });
  await new Promise<void>((resolve) => application.listen(0, "127.0.0.1", resolve));
  redirectUri = `http://127.0.0.1:${(application.address() as AddressInfo).port}/callback`;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => application?.close(resolve));
  server?.kill();
  await sandbox?.close();
  expect(stderr()).not.toContain(sandbox.userKey);
});

async function authorizationUrl(): Promise<string> {
  const registered = (await (
    await fetch(`${issuer}/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ redirect_uris: [redirectUri], client_name: "Browser test" }),
    })
  ).json()) as { client_id: string };
  const { challenge } = pkce();
  const query = new URLSearchParams({
    response_type: "code",
    client_id: registered.client_id,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "b1",
    resource: mcpUrl,
  });
  return `${issuer}/authorize?${query}`;
}

test.each([
  ["with JavaScript", true],
  ["without JavaScript", false],
])(
  "a person signs in from the page in a real browser %s, and is sent back to the application with a code",
  async (_name, javaScriptEnabled) => {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    arrivals.length = 0;
    await page.goto(await authorizationUrl(), { waitUntil: "load" });
    expect(await page.textContent("h1")).toBe("Sign in to LinkShort");
    await page.fill("#api_key", sandbox.userKey);
    await Promise.all([
      page.waitForURL((url) => url.origin === new URL(redirectUri).origin, { timeout: 15_000 }).catch(() => undefined),
      page.click("button[type=submit]"),
    ]);
    const back = arrivals[0];
    const shown = back === undefined ? await page.textContent("body") : "";
    expect({ arrived: back !== undefined, shown }).toEqual({ arrived: true, shown: "" });
    expect(back!.searchParams.get("code")).toMatch(/\S{16,}/);
    expect(back!.searchParams.get("state")).toBe("b1");
    expect(back!.searchParams.get("iss")).toBe(issuer);
    expect(back!.toString()).not.toContain(sandbox.userKey);
    await context.close();
  },
  60_000,
);
