/**
 * The library's bundle (dist/index.js) holds only the server's own code: HTTP, validation, paging and
 * pacing stay in @linkshort/client. The CLI's (dist/cli.js) has every dependency in it, for a quick
 * start (issue 53): it requires only Node's own modules.
 */
import { readFileSync, statSync } from "node:fs";
import { isBuiltin } from "node:module";
import { join } from "node:path";
import "./helpers"; // fails early, with advice, when the bundle is not built

// jose, https and dns are the sign-in's (--sign-in): its tokens, and fetching client metadata documents; pg the store's (--store).
const ALLOWED = [
  /^@linkshort\/client(\/(charts|values))?$/,
  /^@modelcontextprotocol\/server(\/stdio)?$/,
  /^zod\/v4$/,
  /^jose$/,
  /^pg$/,
  /^(node:)?(http|https|dns|util|crypto|net|fs|stream|os|zlib)$/,
];

/** The bytes of the bundle that come from a folder (`store/`) or a file of src/ (the bundler marks each module's code with its path). */
function bytesFrom(source: string, path: string): number {
  const sections = source.split(/^(?=\/\/ (?:src\/|package\.json))/m);
  return sections.filter((section) => section.startsWith(`// src/${path}`)).reduce((sum, section) => sum + Buffer.byteLength(section), 0);
}
const signInBytes = (source: string) => bytesFrom(source, "auth/");

// Optional, each behind a try: pg's native binding, and undici's cache store on a Node that has SQLite (22.5+).
const OPTIONAL = ["pg-native", "node:sqlite"];

test("dist/cli.js requires only Node's own modules (and two optional ones), and stays under 2.2 MB", () => {
  const file = join(__dirname, "../dist/cli.js");
  const source = readFileSync(file, "utf8");
  const required = new Set([...source.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]!));
  // Strings in the code the SDK's bundled ajv writes (its standalone validators), never run here.
  for (const module of required)
    if (!module.startsWith("ajv")) expect({ module, builtin: isBuiltin(module) || OPTIONAL.includes(module) }).toEqual({ module, builtin: true });
  expect(required).toContain("node:sqlite"); // `node:`-only modules keep their prefix
  // 2.09 MB when issue 53 bundled it: the client, undici, the MCP SDK, zod (one copy of the SDK's), jose and pg.
  expect(statSync(file).size).toBeLessThan(2_200_000);
});

test.each(["index.js"])(
  "dist/%s requires only the client, the SDK's server package, zod, jose, pg and node:http/https/dns/util/crypto/net/fs/stream/os (the home folder of the index file)/zlib (the charts' PNG)",
  (name) => {
    const file = join(__dirname, "../dist", name);
    const source = readFileSync(file, "utf8");
    const required = [...source.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]!);
    expect(required.length).toBeGreaterThan(0);
    for (const module of required) expect(ALLOWED.some((pattern) => pattern.test(module))).toBe(true);
    // None of the client's machinery was copied in. (The sign-in's 429 past its failure bounds writes Retry-After, in one place: reading it stays the client's.)
    expect(source.replace('{ "Retry-After": String(seconds) }', "")).not.toMatch(/undici|X-RateLimit|Retry-After|maxpage\s*[<>]=?/i);
    // The one check of its own: arguments against the tool's input schema (the client's schemas), as the SDK's McpServer did.
    expect([...source.matchAll(/safeParse\(/g)].length).toBeLessThanOrEqual(1);
    // The server's code, and the MCP Apps statistics view (a self-contained page of under 14 KB). 92 KB
    // until issue 43 gave deletes a signed confirmation (confirmation.ts) and issue 46 a server per person;
    // 95 KB until issue 45 added clicks over time (now get_link's; its tool, sentences and output schema, the background
    // samples and the view's series: 17.5 KB, 109.5 KB in all); 112 KB until the shared store's
    // index (a shared index reloaded, sampled under the lease) met the click history in server-index.ts (113.6 KB);
    // 116 KB until issue 51 bounded the zone clock's work and the accepted years (116.2 KB); 118 KB until
    // issue 53 added update_links and delete_links (bulk-links.ts, update-links.ts, delete-links.ts and
    // their output schema) and asked get_link for clicks over time: 19.6 KB, 135.8 KB in all.
    const signIn = signInBytes(source);
    expect(signIn).toBeGreaterThan(0);
    const store = bytesFrom(source, "store/") + bytesFrom(source, "account/shared/");
    expect(statSync(file).size - signIn - store).toBeLessThan(138_000);
    // The sign-in (an OAuth authorization server and its page), on a budget of its own: 48 KB (41.9 KB used)
    // until issue 51 kept registrations in two pools (client-pool.ts, 2.0 KB), kept metadata documents'
    // last good copies and bounded their fetches (client-documents.ts, with the fetch moved out of
    // clients.ts), and accepted the resource's other forms (resource.ts, the metadata per loopback name),
    // and bounded failed key checks (failure-throttle.ts 2.6 KB, people.ts' use of it and the refused
    // header keys, a code's grant saved before the code is taken, the refresh rows kept): 56.5 KB.
    expect(signIn).toBeLessThan(58_000);
    // The shared store (--store: Postgres, the sweep's lease; account/shared/state.ts composes it), on a budget
    // of its own: 26 KB until issue 46 kept the click history there too (history-store.ts,
    // shared-history.ts: 6.4 KB) and a signed-in request stopped costing two round trips (the
    // revocation listener, grants trusted for 2 s, rate slots taken in batches: 4.7 KB); 39.1 KB until
    // issue 51 bounded the registered clients on Postgres (client-rows.ts and migration 3: 2.4 KB) and
    // peeked a code before taking it, kept two refresh rows a grant and cleaned expired rate windows: 42.4 KB.
    expect(store).toBeLessThan(44_000);
  },
);
