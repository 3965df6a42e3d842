// No file of the repository names a document it does not contain: the API documents that live
// outside it (the published contract and the notes on deployed servers) are cited nowhere
// (docs/api.md and docs/deployed-servers.md are the repository's own), and every relative
// Markdown link of a README or doc points at a file that exists. Run by scripts/run-tests.mjs ("documents").
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createChecks, root } from "./packages.mjs";

const checks = createChecks("documents");
const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root }).toString().split("\0").filter(Boolean);
const texts = tracked.filter((path) => /\.(ts|tsx|mts|cts|js|mjs|cjs|md|json|ya?ml)$/.test(path) && !path.endsWith("package-lock.json"));
// Their names, built from parts so that this file does not cite them either.
const OUTSIDE_DOCUMENTS = new RegExp(`\\b(${["api-v3", "real-world-notes"].join("|")})\\.md\\b`);

await checks.check("no file cites the API documents kept outside the repository (docs/api.md, docs/deployed-servers.md instead)", () => {
  const citing = [];
  for (const path of texts) {
    if (!existsSync(join(root, path))) continue;
    readFileSync(join(root, path), "utf8")
      .split("\n")
      .forEach((line, index) => {
        if (OUTSIDE_DOCUMENTS.test(line)) citing.push(`${path}:${index + 1}`);
      });
  }
  if (citing.length > 0) throw new Error(citing.join(", "));
});

await checks.check("every relative Markdown link points at a file of the repository", () => {
  const broken = [];
  for (const path of texts.filter((name) => name.endsWith(".md"))) {
    if (!existsSync(join(root, path))) continue;
    const text = readFileSync(join(root, path), "utf8");
    for (const [, target] of text.matchAll(/\]\(([^)\s]{1,500})\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target)) continue;
      const file = target.split("#")[0];
      if (!existsSync(join(root, dirname(path), file))) broken.push(`${path}: ${target}`);
    }
  }
  if (broken.length > 0) throw new Error(broken.join(", "));
});

checks.finish();
