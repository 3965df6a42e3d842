#!/usr/bin/env node
import { parseArgs } from "node:util";
import { FaultInjector } from "./faults/fault-injector";
import { oversizedPagesOf } from "./oversized-pages";
import { parseSeed } from "./seed/seed";
import { startSandbox } from "./server";
import { errorText } from "./values";

const usage = `linkshort-sandbox: a local server of the Link-Shortening Service API v3

  --port N            port to listen on (default 8787; 0 picks a free one)
  --host ADDRESS      address to listen on (default 127.0.0.1)
  --seed NAME         demo | minimal | none (default demo), for a new data store;
                      links:N (or demo+links:N) gives the demo user N generated links
  --mode MODE         deployed | document (default deployed)
  --data FILE         keep state in FILE across restarts (default: in memory)
  --rate-limit N/S    N requests per S seconds and key (default 30/60)
  --max-page-size N   lists give at most N items a page, whatever limit asks
                      (default: no maximum, as deployed servers document none)
  --oversized-pages HOW  what a limit above --max-page-size gets: cap (a page of N
                      that says so in perpage), refuse (the servers' error "The limit
                      must be between 1 and N."), echo (a page of N whose perpage
                      repeats the limit asked); default cap
  --faults SPEC       inject faults, e.g. "5xx:0.1,drop:0.05" (kinds: 5xx drop delay html empty malformed 429)
  --admin-key KEY     fixed API key for the seeded admin
  --user-key KEY      fixed API key for the seeded user
  --json              print the address and keys as one JSON line
  --help`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "8787" },
      host: { type: "string", default: "127.0.0.1" },
      seed: { type: "string", default: "demo" },
      mode: { type: "string", default: "deployed" },
      data: { type: "string" },
      "rate-limit": { type: "string", default: "30/60" },
      "max-page-size": { type: "string" },
      "oversized-pages": { type: "string" },
      faults: { type: "string" },
      "admin-key": { type: "string" },
      "user-key": { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: "${values.port}" is not a port number`);
  const seed = parseSeed(values.seed);
  if (values.mode !== "deployed" && values.mode !== "document") throw new Error(`--mode: "${values.mode}" must be deployed or document`);
  const rate = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(values["rate-limit"]);
  if (!rate) throw new Error(`--rate-limit: "${values["rate-limit"]}" must look like 30/60 (requests/seconds)`);

  const maxPageSize = values["max-page-size"] === undefined ? undefined : Number(values["max-page-size"]);
  if (maxPageSize !== undefined && !(Number.isSafeInteger(maxPageSize) && maxPageSize > 0))
    throw new Error(`--max-page-size: "${values["max-page-size"]}" must be a positive whole number`);

  const oversizedPages = values["oversized-pages"] === undefined ? undefined : oversizedPagesOf(values["oversized-pages"], "--oversized-pages");

  const sandbox = await startSandbox({
    port,
    host: values.host,
    seed,
    mode: values.mode,
    ...(values.data ? { dataFile: values.data } : {}),
    rateLimit: { limit: Number(rate[1]), windowMs: Number(rate[2]) * 1000 },
    ...(maxPageSize !== undefined ? { maxPageSize } : {}),
    ...(oversizedPages !== undefined ? { oversizedPages } : {}),
    ...(values.faults ? { faults: FaultInjector.parse(values.faults) } : {}),
    keys: { ...(values["admin-key"] ? { admin: values["admin-key"] } : {}), ...(values["user-key"] ? { user: values["user-key"] } : {}) },
  });
  if (values.json) {
    console.log(JSON.stringify({ baseUrl: sandbox.baseUrl, adminKey: sandbox.adminKey, userKey: sandbox.userKey }));
  } else {
    console.log(`linkshort sandbox (${sandbox.mode} mode) listening at ${sandbox.baseUrl}`);
    console.log(`  admin API key: ${sandbox.adminKey}`);
    console.log(`  user API key:  ${sandbox.userKey}`);
    console.log(values.data ? `  data file:     ${values.data}` : "  data:          in memory (use --data FILE to keep it)");
  }
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(`linkshort-sandbox: ${errorText(error)}`);
  process.exit(1);
});
