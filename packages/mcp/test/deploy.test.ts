/**
 * The team deployment (deploy/compose.yaml, deploy/Caddyfile) as far as this machine can check it:
 * no docker and no network, so the images are never pulled nor the stack run. What is checked: the
 * compose file parses; its server command is this package's, with flags the CLI accepts; every
 * variable it sets is one the CLI documents, and with the README's .env each holds a value the
 * CLI takes; the store's URL names the Postgres service with its user, database and password; the
 * port agrees across the command, `expose` and the Caddyfile, whose site is the public address.
 * Then the built CLI is started with that very command and environment (its port free, the store
 * the test's Postgres instead of the service's host name) and answers for the public host name.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { parse } from "yaml";
import { clientFromEnvironment, parseCommandLine } from "../src/config/command-line";
import { publicUrlFrom, signInSecretFrom, trustedProxiesFrom } from "../src/config/sign-in-options";
import { TrustedProxies } from "../src/auth/client-address";
import { USAGE } from "../src/config/usage";
import { storeUrl } from "../src/account/shared/state";
import { CLI } from "./helpers";
import { freshDatabase, stopTestPostgres } from "./postgres-support";

jest.setTimeout(60_000);
afterAll(() => stopTestPostgres());

const deploy = join(__dirname, "../deploy");
interface Service {
  image: string;
  command?: string[];
  environment?: Record<string, string>;
  expose?: string[];
  ports?: string[];
  volumes?: string[];
}
const compose = parse(readFileSync(join(deploy, "compose.yaml"), "utf8")) as { services: Record<string, Service> };
const caddyfile = readFileSync(join(deploy, "Caddyfile"), "utf8");
const readme = readFileSync(join(__dirname, "../README.md"), "utf8");
const packageJson = JSON.parse(readFileSync(join(__dirname, "../package.json"), "utf8")) as { name: string; bin: Record<string, string> };
const { mcp, postgres, caddy } = compose.services;

/** The .env the README's deployment section writes (its `printf`, with values in place of `openssl rand`). */
const dotEnv: Record<string, string> = {
  LINKSHORT_BASE_URL: "https://short.example.com",
  MCP_HOST: "mcp.team.example",
  POSTGRES_PASSWORD: "a".repeat(48),
  LINKSHORT_MCP_SIGN_IN_SECRET: "b".repeat(64),
};

/** Compose's interpolation: `${NAME}`, `${NAME:?message}` (required) and `${NAME:-default}`. */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_match, name: string, kind?: string, rest?: string) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (kind === "?") throw new Error(`compose.yaml needs ${name}: ${rest ?? ""}`);
    return kind === "-" ? (rest ?? "") : "";
  });
}

const serverFlags = () => {
  const [npx, yes, name, ...flags] = mcp!.command!;
  return { runner: [npx, yes, name], flags };
};
const serverEnv = () => Object.fromEntries(Object.entries(mcp!.environment!).map(([key, value]) => [key, interpolate(value, dotEnv)]));

test("compose.yaml runs this package's one command with flags the CLI accepts, on the port the service exposes", () => {
  expect(Object.keys(compose.services).sort()).toEqual(["caddy", "mcp", "postgres"]);
  const { runner, flags } = serverFlags();
  expect(runner).toEqual(["npx", "--yes", packageJson.name]);
  // npx runs a package's only bin.
  expect(Object.keys(packageJson.bin)).toEqual(["linkshort-mcp"]);
  const commandLine = parseCommandLine(flags);
  expect(commandLine.http).toMatchObject({ port: 3000, host: "0.0.0.0", signIn: { allowLocalClientMetadata: false } });
  expect(mcp!.expose).toEqual([String(commandLine.http!.port)]);
  // Caddy is the only way in.
  expect(mcp!.ports).toBeUndefined();
  expect(postgres!.ports).toBeUndefined();
});

test("every variable compose.yaml gives the server is one its usage documents, and with the README's .env holds a value the CLI takes", () => {
  for (const name of Object.keys(mcp!.environment!)) expect([name, USAGE.includes(`  ${name}  `)]).toEqual([name, true]);
  // Each value compose requires of .env is one the README's .env sets.
  const required = [...readFileSync(join(deploy, "compose.yaml"), "utf8").matchAll(/\$\{(\w+):\?/g)].map((match) => match[1]!);
  for (const name of new Set(required)) expect([name, new RegExp(`printf '([^']*\\\\n)?${name}=`).test(readme)]).toEqual([name, true]);
  const env = serverEnv();
  const { flags } = serverFlags();
  const commandLine = parseCommandLine(flags);
  expect(clientFromEnvironment(env, 20, true).baseUrl).toBe(dotEnv.LINKSHORT_BASE_URL);
  expect(publicUrlFrom(env, commandLine.http!.signIn!)).toBe(`https://${dotEnv.MCP_HOST}`);
  expect(signInSecretFrom(env)).toHaveLength(32);
  // Left empty, the secret is the one the store keeps (not a configuration error).
  expect(
    signInSecretFrom({
      ...env,
      LINKSHORT_MCP_SIGN_IN_SECRET: interpolate(mcp!.environment!.LINKSHORT_MCP_SIGN_IN_SECRET!, { ...dotEnv, LINKSHORT_MCP_SIGN_IN_SECRET: "" }),
    }),
  ).toBeUndefined();
  // The store is the Postgres service, as its own variables and health check name it.
  const store = new URL(storeUrl(env.LINKSHORT_MCP_STORE!, "LINKSHORT_MCP_STORE"));
  const postgresEnv = Object.fromEntries(Object.entries(postgres!.environment!).map(([key, value]) => [key, interpolate(value, dotEnv)]));
  expect([store.hostname, store.port, store.username, decodeURIComponent(store.password), store.pathname]).toEqual([
    "postgres",
    "5432",
    postgresEnv.POSTGRES_USER,
    dotEnv.POSTGRES_PASSWORD,
    `/${postgresEnv.POSTGRES_DB}`,
  ]);
});

test("the Caddyfile serves the public address and sends every request to the server's service and port", () => {
  const { flags } = serverFlags();
  const port = parseCommandLine(flags).http!.port;
  // The site is MCP_HOST, which compose gives Caddy, and the public URL the server is told is https://MCP_HOST.
  expect(caddyfile).toMatch(/^\{\$MCP_HOST\} \{$/m);
  expect(caddy!.environment!.MCP_HOST).toBe("${MCP_HOST}");
  expect(mcp!.environment!.LINKSHORT_MCP_PUBLIC_URL).toMatch(/^https:\/\/\$\{MCP_HOST[:}]/);
  expect(caddyfile).toContain(`dynamic a mcp ${port}`);
  expect(caddy!.ports).toEqual(expect.arrayContaining(["80:80", "443:443"]));
  expect(caddy!.volumes).toContain("./Caddyfile:/etc/caddy/Caddyfile:ro");
});

test("the server trusts X-Forwarded-For from Caddy's fixed address only, which no other container of the network can get", () => {
  const trusted = trustedProxiesFrom(serverEnv(), parseCommandLine(serverFlags().flags).http!.signIn!)!;
  const network = (compose as unknown as { networks: { default: { ipam: { config: Array<{ subnet: string; ip_range: string }> } } } }).networks.default.ipam
    .config[0]!;
  const caddyAddress = (caddy as unknown as { networks: { default: { ipv4_address: string } } }).networks.default.ipv4_address;
  expect(mcp!.environment!.LINKSHORT_MCP_TRUSTED_PROXY).toBe(caddyAddress);
  expect(trusted.has(caddyAddress)).toBe(true);
  const inRange = (address: string, cidr: string) => new TrustedProxies([cidr]).has(address);
  expect(inRange(caddyAddress, network.subnet)).toBe(true);
  expect(inRange(caddyAddress, network.ip_range)).toBe(false);
  expect(inRange(network.ip_range.split("/")[0]!, network.subnet)).toBe(true);
  expect(trusted.has(network.ip_range.split("/")[0]!)).toBe(false);
});

/** A GET as a proxy sends it on: to the server's address, addressed to `host`. */
function getAs(port: number, host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: "127.0.0.1", port, path, headers: { Host: host } }, (answer) => {
      let body = "";
      answer.on("data", (chunk: Buffer) => (body += chunk.toString()));
      answer.on("end", () => resolve({ status: answer.statusCode ?? 0, body }));
    });
    sent.on("error", reject);
    sent.end();
  });
}

test("the built CLI started with compose.yaml's command and environment serves the public host name from its store", async () => {
  const url = await freshDatabase();
  const env = { ...serverEnv(), LINKSHORT_MCP_STORE: url };
  const flags = serverFlags().flags.map((flag) => (flag === "3000" ? "0" : flag));
  const child = spawn(process.execPath, [CLI, ...flags], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr!.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /Streamable HTTP at http:\/\/[^\s/]+:(\d+)/.exec(stderr);
        if (found) resolve(Number(found[1]));
      });
      child.once("exit", (code) => reject(new Error(`linkshort-mcp exited with ${code}: ${stderr}`)));
    });
    expect(stderr).toContain("for people who sign in as themselves");
    expect(stderr).toMatch(/sign-ins, each person's links indexed and their clicks sampled in postgres:\/\/postgres@127\.0\.0\.1:\d+\//);
    const metadata = await getAs(port, dotEnv.MCP_HOST!, "/.well-known/oauth-protected-resource/mcp");
    expect(metadata.status).toBe(200);
    expect(JSON.parse(metadata.body)).toMatchObject({ resource: `https://${dotEnv.MCP_HOST}/mcp` });
    expect((await getAs(port, "elsewhere.example", "/.well-known/oauth-protected-resource/mcp")).status).toBe(403);
    expect(stderr).not.toContain(dotEnv.POSTGRES_PASSWORD);
  } finally {
    child.kill("SIGKILL");
  }
});
