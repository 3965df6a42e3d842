/**
 * The default public address of `--sign-in` is the loopback address it listens at (127.0.0.1): a
 * browser that opened the server as localhost signs in all the same. With `--public-url` set, a
 * page from another address is refused, and the refusal says which address the server knows.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import type { ChildProcess } from "node:child_process";
import { startHttpServerProcess } from "./helpers";
import { openSignInPage, pkce, REDIRECT_URI, submitSignIn } from "./sign-in-helpers";

let sandbox: Sandbox;
const servers: ChildProcess[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
});

afterAll(async () => {
  for (const server of servers) server.kill();
  await sandbox.close();
});

async function signInServer(args: string[]) {
  const started = await startHttpServerProcess({ baseUrl: sandbox.baseUrl, apiKey: "" }, ["--sign-in", ...args]);
  servers.push(started.child);
  return started;
}

async function authorizationQuery(issuer: string): Promise<URLSearchParams> {
  const registered = (await (
    await fetch(`${issuer}/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI] }),
    })
  ).json()) as { client_id: string };
  return new URLSearchParams({
    response_type: "code",
    client_id: registered.client_id,
    redirect_uri: REDIRECT_URI,
    code_challenge: pkce().challenge,
    code_challenge_method: "S256",
    state: "s1",
  });
}

test("with the default issuer (127.0.0.1), a browser that opened the sign-in page as localhost signs in, and is sent back with the issuer's iss", async () => {
  const { url } = await signInServer([]);
  const issuer = new URL(url).origin;
  expect(new URL(issuer).hostname).toBe("127.0.0.1");
  const asLocalhost = `http://localhost:${new URL(issuer).port}`;
  const page = await openSignInPage(`${asLocalhost}/authorize?${await authorizationQuery(issuer)}`);
  expect(page.status).toBe(200);
  const answer = await submitSignIn(asLocalhost, page, sandbox.userKey);
  expect(answer.status).toBe(303);
  const back = new URL(answer.headers.get("location")!).searchParams;
  expect([back.get("iss"), back.get("state")]).toEqual([issuer, "s1"]);
  expect(back.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  // Another port of this machine is another origin: still refused.
  expect((await submitSignIn(issuer, page, sandbox.userKey, { origin: "http://localhost:9" })).status).toBe(403);
});

test("with --public-url set, a page opened at another address is refused, and the refusal names the public address and --public-url", async () => {
  const publicUrl = "https://mcp.example.test";
  const { url } = await signInServer(["--public-url", publicUrl]);
  const local = new URL(url).origin;
  const query = await authorizationQuery(local);
  const page = await openSignInPage(`${local}/authorize?${query}`);
  expect(page.status).toBe(200);
  const refused = await submitSignIn(local, page, sandbox.userKey);
  expect(refused.status).toBe(403);
  const html = await refused.text();
  expect(html).toContain("did not come from this server&#39;s own page");
  expect(html).toContain(`If you opened this server at ${local}`);
  expect(html).toContain(publicUrl);
  expect(html).toContain("--public-url");
});
