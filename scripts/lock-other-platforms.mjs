// Keeps package-lock.json valid for `npm ci` on every platform, whatever registry wrote it.
//
// Why: npm records an optional platform binary (@swc/core-darwin-arm64, @rollup/rollup-win32-x64-msvc,
// ...) in the lockfile only when the registry it resolved against serves that package's metadata.
// A registry mirror that carries only this machine's binaries leaves them out, and `npm ci` then
// calls the lockfile out of sync ("Missing: ... from lock file"). This script adds each missing
// entry with the version its parent pins and the platform its name states, so npm skips it on
// other platforms without asking any registry, exactly as it does for a complete lockfile.
//
// Run after `npm install` changes the lockfile: `node scripts/lock-other-platforms.mjs` (`--check`
// exits 1 and names what is missing instead of writing).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const LOCK = join(dirname(fileURLToPath(import.meta.url)), "../package-lock.json");
const lock = JSON.parse(readFileSync(LOCK, "utf8"));
const packages = lock.packages;

const OS = ["android", "darwin", "freebsd", "linux", "openbsd", "openharmony", "sunos", "win32", "aix", "netbsd"];
const CPU = ["arm64", "arm", "x64", "ia32", "loong64", "ppc64", "riscv64", "s390x", "wasm32"];

/** The platform a binary package's name states: `core-linux-arm64-musl` -> linux, arm64, musl. */
function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((part) => OS.includes(part));
  const cpu = parts.find((part) => CPU.includes(part)) ?? (parts.includes("arm") || parts.some((p) => p.startsWith("arm")) ? "arm" : undefined);
  if (!os || !cpu) return undefined;
  const platform = { os: [os], cpu: [cpu] };
  if (os === "linux") platform.libc = [parts.some((part) => part.startsWith("musl")) ? "musl" : "glibc"];
  return platform;
}

/** Where npm would look for `name` from the package at `from` (node_modules lookup, innermost first). */
function resolves(from, name) {
  let base = from;
  for (;;) {
    if (packages[`${base ? `${base}/` : ""}node_modules/${name}`]) return true;
    if (!base) return false;
    const at = base.lastIndexOf("/node_modules/");
    base = at === -1 ? "" : base.slice(0, at);
  }
}

const missing = [];
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolves(path, name)) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) {
      console.error(`${name}@${spec} (optional for ${path || "the root"}) is missing and is not a pinned platform binary`);
      process.exitCode = 1;
      continue;
    }
    const key = `${path ? `${path}/` : ""}node_modules/${name}`.replace(/^node_modules\/(.*\/node_modules\/)/, "$1");
    const target = path && !resolves("", name) ? `node_modules/${name}` : key;
    missing.push(target);
    // In npm's own key order, so that a later `npm install` rewrites nothing.
    packages[target] = {
      version: spec,
      cpu: platform.cpu,
      ...(entry.dev ? { dev: true } : {}),
      ...(entry.devOptional ? { devOptional: true } : {}),
      ...(platform.libc ? { libc: platform.libc } : {}),
      optional: true,
      os: platform.os,
    };
  }
}

if (process.argv.includes("--check")) {
  if (missing.length > 0) {
    console.error(
      `package-lock.json lacks ${missing.length} platform binaries (${missing.slice(0, 3).join(", ")}, ...): run node scripts/lock-other-platforms.mjs`,
    );
    process.exit(1);
  }
} else if (missing.length > 0) {
  lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
  writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`added ${missing.length} other-platform binaries to package-lock.json`);
}
