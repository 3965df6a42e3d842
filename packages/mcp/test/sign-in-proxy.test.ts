/**
 * The client's address behind the deployment's proxy (issue 51, the bounds on wrong keys): every
 * request reaches the server from Caddy, so without --trusted-proxy one anonymous client's wrong
 * keys hold every person's sign-in at 429. With it, the client is the right-most hop of
 * X-Forwarded-For that is no trusted proxy, and only when the peer is one; an IPv6 client is one
 * client across its /64. Registrations are counted by the same address.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { addressGroup, clientAddress, TrustedProxies } from "../src/auth/client-address";
import { ADDRESS_BOUND } from "../src/auth/failure-throttle";
import { People } from "../src/auth/people";
import { MemoryAuthStore } from "../src/auth/store";
import { clientFor, ConfigError, parseCommandLine } from "../src/config/command-line";
import { trustedProxiesFrom } from "../src/config/sign-in-options";
import { startHttpServer, type HttpServer } from "../src/server/http";
import { createLinkShortMcpServer } from "../src/server/server";
import { listTools, REDIRECT_URI } from "./sign-in-helpers";

let sandbox: Sandbox;
const servers: HttpServer[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 100_000, windowMs: 60_000 } });
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await sandbox.close();
});

const wrongKey = (n: number) => `made-up-key-${n}-0123456789abcdef0123456789`;
const people = () => new People({ clientFor: (key) => clientFor(sandbox.baseUrl, key, 5), admin: false, say: () => undefined, letGo: () => undefined });

async function signInServer(trustedProxies?: TrustedProxies): Promise<{ server: HttpServer; store: MemoryAuthStore }> {
  const store = new MemoryAuthStore();
  const server = await startHttpServer((person) => createLinkShortMcpServer({ client: person!.client, admin: false }), {
    port: 0,
    host: "127.0.0.1",
    signIn: { people: people(), serviceLabel: "the sandbox", store, ...(trustedProxies ? { trustedProxies } : {}) },
  });
  servers.push(server);
  return { server, store };
}

const from = (client: string, key: string) => ({ "X-Forwarded-For": client, "X-LinkShort-Api-Key": key });

test("the client is the right-most hop that is no trusted proxy, and only when the peer is one; anything unreadable ends the walk", () => {
  const trusted = new TrustedProxies(["172.30.53.10", "10.0.0.0/8", "fd00::/8"]);
  expect(clientAddress("172.30.53.10", "198.51.100.7", trusted)).toBe("198.51.100.7");
  expect(clientAddress("::ffff:172.30.53.10", "6.6.6.6, 198.51.100.7, 10.1.2.3", trusted)).toBe("198.51.100.7");
  expect(clientAddress("172.30.53.10", ["6.6.6.6", "[2001:db8::1]:443"], trusted)).toBe("2001:db8::1");
  // All trusted: the left-most; none: the peer.
  expect(clientAddress("172.30.53.10", "10.0.0.1, 10.0.0.2", trusted)).toBe("10.0.0.1");
  expect(clientAddress("172.30.53.10", undefined, trusted)).toBe("172.30.53.10");
  expect(clientAddress("172.30.53.10", "not-an-address", trusted)).toBe("172.30.53.10");
  // A peer that is no trusted proxy, or no proxy trusted at all: the header is anyone's say.
  expect(clientAddress("203.0.113.9", "198.51.100.7", trusted)).toBe("203.0.113.9");
  expect(clientAddress("172.30.53.10", "198.51.100.7", undefined)).toBe("172.30.53.10");
  expect(addressGroup("2001:db8:1:2:aaaa::1")).toBe(addressGroup("2001:DB8:1:2:bbbb:cccc:dddd:eeee"));
  expect(addressGroup("2001:db8:1:3::1")).not.toBe(addressGroup("2001:db8:1:2::1"));
  expect(addressGroup("::ffff:198.51.100.7")).toBe("198.51.100.7");
});

test("--trusted-proxy and its variable take addresses and CIDR ranges, the flag first, and refuse anything else", () => {
  const signIn = parseCommandLine(["--http", "0", "--sign-in", "--trusted-proxy", "172.30.53.10,10.0.0.0/8", "--trusted-proxy", "::1"]).http!.signIn!;
  expect(signIn.trustedProxies).toEqual(["172.30.53.10", "10.0.0.0/8", "::1"]);
  expect(trustedProxiesFrom({ LINKSHORT_MCP_TRUSTED_PROXY: "192.0.2.1" }, signIn)!.has("10.9.9.9")).toBe(true);
  expect(trustedProxiesFrom({ LINKSHORT_MCP_TRUSTED_PROXY: "192.0.2.1" }, { allowLocalClientMetadata: false })!.has("192.0.2.1")).toBe(true);
  expect(trustedProxiesFrom({}, { allowLocalClientMetadata: false })).toBeUndefined();
  expect(() => parseCommandLine(["--http", "0", "--sign-in", "--trusted-proxy", "caddy"])).toThrow(ConfigError);
  expect(() => parseCommandLine(["--http", "0", "--sign-in", "--trusted-proxy", "10.0.0.0/33"])).toThrow(/10\.0\.0\.0\/33/);
  expect(() => parseCommandLine(["--http", "0", "--trusted-proxy", "10.0.0.1"])).toThrow(/--trusted-proxy needs --sign-in/);
  expect(() => trustedProxiesFrom({ LINKSHORT_MCP_TRUSTED_PROXY: "1.2.3" }, { allowLocalClientMetadata: false })).toThrow(/LINKSHORT_MCP_TRUSTED_PROXY/);
});

test("wrong keys from addresses across one IPv6 /64 share one bound: a fresh address is no fresh bucket", async () => {
  const checking = people();
  const answers = await Promise.all(
    Array.from({ length: ADDRESS_BOUND.burst + 2 }, (_, n) => checking.checkKey(wrongKey(n), { address: `2001:db8:5:6::${(n + 1).toString(16)}` })),
  );
  expect(answers.filter((answer) => !answer.accepted && answer.status === 429)).toHaveLength(2);
  // Another /64 is another client.
  expect(await checking.checkKey(sandbox.userKey, { address: "2001:db8:5:7::1" })).toMatchObject({ accepted: true });
}, 30_000);

test("behind a trusted proxy, one client's wrong keys hold back that client only; without --trusted-proxy the forwarded address is ignored", async () => {
  const { server } = await signInServer(new TrustedProxies(["127.0.0.1", "::1"]));
  const flood = await Promise.all(Array.from({ length: ADDRESS_BOUND.burst + 2 }, (_, n) => listTools(server.url, from("198.51.100.1", wrongKey(n)))));
  expect(flood.filter((answer) => answer.status === 429)).toHaveLength(2);
  expect((await listTools(server.url, from("198.51.100.2", sandbox.userKey))).status).toBe(200);
  // The flooding client is still held back, whatever it writes left of the proxy's hop.
  expect((await listTools(server.url, from("203.0.113.5, 198.51.100.1", wrongKey(99)))).status).toBe(429);

  const { server: direct } = await signInServer();
  await Promise.all(Array.from({ length: ADDRESS_BOUND.burst + 2 }, (_, n) => listTools(direct.url, from("198.51.100.1", wrongKey(n)))));
  expect((await listTools(direct.url, from("198.51.100.2", sandbox.userKey))).status).toBe(429);
}, 30_000);

test("registrations are counted by the same client address: the forwarded one, an IPv6 one by its /64", async () => {
  const { server, store } = await signInServer(new TrustedProxies(["127.0.0.1"]));
  const register = async (client: string) => {
    const answer = await fetch(`${new URL(server.url).origin}/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": client },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI] }),
    });
    return (await store.client(((await answer.json()) as { client_id: string }).client_id))!.registeredFrom;
  };
  expect(await register("198.51.100.1")).toBe("198.51.100.1");
  expect(await register("2001:db8:1:2::77")).toBe("2001:db8:1:2::/64");
});
