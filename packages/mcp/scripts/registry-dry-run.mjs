// The MCP Registry's publish, as a dry run: everything `mcp-publisher publish` needs of server.json
// and package.json, checked here without the publisher (a Go binary from GitHub releases) or a network.
// The release workflow runs it before it publishes; `npm test` runs it (suite "MCP registry (dry run)")
// and test/registry.test.ts runs it on broken copies. `--server-json PATH` checks another file.
// The schema is the registry's own, of the version server.json's `$schema` names, kept in test/.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv from "ajv";
import addFormats from "ajv-formats";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));
const NPM_REGISTRY = "https://registry.npmjs.org";
const SCHEMA_PATH = join(packageDir, "test", "server.schema.json");

/** `{name}` in a URL template: the registry's templated URLs. */
const variablesIn = (url) => [...url.matchAll(/\{([^{}]{1,100})\}/g)].map((match) => match[1]);

function validateAgainstSchema(server) {
  const schema = readJson(SCHEMA_PATH);
  if (server.$schema !== schema.$id) throw new Error(`$schema is ${server.$schema}; the schema kept in test/ is ${schema.$id}`);
  // Strict, but for two habits of the registry's generated schema: OpenAPI's `example` beside each
  // field (a keyword that checks nothing), and `required` naming a property defined in a sibling of allOf.
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
  ajv.addKeyword("example");
  addFormats(ajv);
  const validate = ajv.compile(schema);
  if (!validate(server)) throw new Error(validate.errors.map((error) => `${error.instancePath || "/"} ${error.message}`).join("; "));
}

function checkNpmPackage(server, manifest) {
  const packages = server.packages ?? [];
  const npm = packages.filter((entry) => entry.registryType === "npm");
  if (npm.length !== 1) throw new Error(`${npm.length} npm packages`);
  const [entry] = npm;
  const wrong = [];
  if (entry.identifier !== manifest.name) wrong.push(`identifier ${entry.identifier} is not package.json's name ${manifest.name}`);
  if (entry.version !== manifest.version) wrong.push(`version ${entry.version} is not package.json's ${manifest.version}`);
  if ((entry.registryBaseUrl ?? NPM_REGISTRY) !== NPM_REGISTRY)
    wrong.push(`registryBaseUrl ${entry.registryBaseUrl}: the registry accepts ${NPM_REGISTRY} only`);
  if (entry.transport?.type !== "stdio") wrong.push(`transport ${entry.transport?.type}: the package's CLI serves stdio`);
  if (manifest.private) wrong.push("package.json is private");
  if (wrong.length > 0) throw new Error(wrong.join("; "));
}

/** What the registry checks of a remote beyond the schema: https, not this machine, every `{variable}` defined. */
function checkRemotes(server) {
  const remotes = server.remotes ?? [];
  if (remotes.length !== 1) throw new Error(`${remotes.length} remotes: one, the Streamable HTTP server a team runs`);
  const [remote] = remotes;
  if (remote.type !== "streamable-http") throw new Error(`type ${remote.type}: linkshort-mcp --http serves Streamable HTTP only`);
  const used = variablesIn(remote.url);
  const defined = Object.keys(remote.variables ?? {});
  const undefinedHere = used.filter((name) => !defined.includes(name));
  if (undefinedHere.length > 0) throw new Error(`the URL uses ${undefinedHere.map((name) => `{${name}}`).join(", ")}, not in variables`);
  const unused = defined.filter((name) => !used.includes(name));
  if (unused.length > 0) throw new Error(`variables ${unused.join(", ")} are not in the URL`);
  let url;
  try {
    url = new URL(remote.url.replace(/\{[^{}]{1,100}\}/g, "placeholder"));
  } catch {
    throw new Error(`${remote.url} is no URL once its variables are filled in`);
  }
  if (url.protocol !== "https:") throw new Error(`${remote.url}: the registry takes https remotes only`);
  if (url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname.endsWith(".localhost"))
    throw new Error(`${remote.url}: a remote on this machine`);
  if (url.pathname !== "/mcp") throw new Error(`${remote.url}: the server's endpoint is /mcp`);
}

/** Each check of the publish, by name: `undefined` where it passes, else why not. */
export function dryRun(serverJsonPath = join(packageDir, "server.json")) {
  const server = readJson(serverJsonPath);
  const manifest = readJson(join(packageDir, "package.json"));
  const checks = [
    ["server.json validates against the registry's schema of the version $schema names", () => validateAgainstSchema(server)],
    [
      "name is package.json's mcpName (how the registry verifies the npm package)",
      () => {
        if (server.name !== manifest.mcpName) throw new Error(`name ${server.name}, mcpName ${manifest.mcpName}`);
      },
    ],
    [
      "version is package.json's version",
      () => {
        if (server.version !== manifest.version) throw new Error(`server.json ${server.version}, package.json ${manifest.version}`);
      },
    ],
    ["the npm package: package.json's name and version, over stdio", () => checkNpmPackage(server, manifest)],
    ["the remote: Streamable HTTP at https://{host}/mcp with its variables", () => checkRemotes(server)],
  ];
  return checks.map(([label, run]) => {
    try {
      run();
      return { label };
    } catch (error) {
      return { label, problem: error instanceof Error ? error.message : String(error) };
    }
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf("--server-json");
  const results = dryRun(at > 0 ? process.argv[at + 1] : undefined);
  for (const { label, problem } of results) console.log(problem === undefined ? `ok     ${label}` : `FAILED ${label}: ${problem}`);
  const failed = results.filter((result) => result.problem !== undefined).length;
  console.log(`MCP registry (dry run): ${results.length - failed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}
