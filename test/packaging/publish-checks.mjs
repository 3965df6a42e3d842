// attw and publint over every public package, as packed for npm: every entry point resolves to
// JavaScript and to type declarations of the same module format under every TypeScript
// resolution mode (node10, node16 from CJS and from ESM, bundler), and publint has nothing to say
// (no error, no warning, no suggestion). Run by scripts/run-tests.mjs ("attw and publint").
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { createChecks, pack, publicPackages, root } from "./packages.mjs";

const checks = createChecks("attw and publint");
const work = mkdtempSync(join(tmpdir(), "linkshort-publish-checks-"));
try {
  for (const { dir, name, manifest } of publicPackages) {
    const tarball = pack(dir, work);

    await checks.check(`${name}: attw`, () => {
      let output;
      try {
        output = execFileSync(join(root, "node_modules", ".bin", "attw"), [tarball, "--format", "json"], { stdio: ["ignore", "pipe", "pipe"] }).toString();
      } catch (error) {
        // attw exits 1 when it finds problems; its JSON still says which.
        output = error.stdout?.toString() ?? "";
        if (!output) throw error;
      }
      const result = JSON.parse(output);
      if (result.analysis.types === false) {
        // A package with no types must have nothing to import either: n8n loads the node's files by
        // path (package.json "n8n"), so it declares neither main nor exports.
        if (manifest.main || manifest.exports || manifest.module) throw new Error("has an entry point but no type declarations");
        return "no entry points to import: n8n loads its files by path";
      }
      // attw's JSON groups problems by kind: { FalseCJS: [...], NoResolution: [...] }.
      const problems = Object.values(result.problems ?? {}).flat();
      if (problems.length > 0) {
        throw new Error(problems.map((p) => `${p.kind} ${p.entrypoint ?? p.typesFileName ?? ""} ${p.resolutionKind ?? ""}`.trim()).join("; "));
      }
      const entrypoints = Object.entries(result.analysis.entrypoints);
      const unresolved = [];
      for (const [entrypoint, { resolutions }] of entrypoints) {
        for (const [mode, { resolution }] of Object.entries(resolutions)) {
          if (!resolution?.fileName) unresolved.push(`${entrypoint} under ${mode}`);
        }
      }
      if (unresolved.length > 0) throw new Error(`does not resolve: ${unresolved.join(", ")}`);
      return `${entrypoints.map(([entrypoint]) => entrypoint).join(", ")}: every resolution mode`;
    });

    await checks.check(`${name}: publint`, async () => {
      const { messages, pkg } = await publint({ pkgDir: join(root, dir), pack: "npm", level: "suggestion", strict: true });
      if (messages.length > 0) throw new Error(messages.map((m) => `${m.type}: ${formatMessage(m, pkg, { color: false })}`).join("; "));
    });

    await checks.check(`${name}: engines and type`, () => {
      if (!manifest.engines?.node) throw new Error("no engines.node");
      if (manifest.type !== "commonjs" && manifest.type !== "module") throw new Error("no type");
      return `node ${manifest.engines.node}, ${manifest.type}`;
    });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
checks.finish();
