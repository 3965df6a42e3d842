// What the `core` bundle may use, written down once (ARCHITECTURE.md, "What the core runs on").
//
// The core runs on Node (>= 20.18.1, the client's engines) and nowhere else: every host is a Node
// process (n8n's main process and workers, the MCP server, Raycast's extension worker). So it may
// use what Node has without an import (Buffer, TextEncoder, URL, AbortSignal, Intl) and import
// `node:crypto`. What it may not use is what n8n's verification scanner rejects in a node package
// (`@n8n/scan-community-package`: its no-restricted-globals and no-restricted-imports rules, which
// lint every file of the published package, the bundled client included): timers, `process`,
// `global`/`globalThis`, `__dirname`/`__filename`, and any module but zod and crypto (no zlib, no
// fs, no net). What a host must give instead: a transport, a sleep, and for a smaller PNG a
// deflate. This script checks the built entries a host without Node's extras bundles (core, charts,
// values: dist/{core,charts/index,values}.{js,mjs}) against that list.
import { readFileSync } from "node:fs";

const FORBIDDEN = [
  [/\bsetTimeout\b/, "setTimeout"],
  [/\bclearTimeout\b/, "clearTimeout"],
  [/\bsetInterval\b/, "setInterval"],
  [/\bclearInterval\b/, "clearInterval"],
  [/\bsetImmediate\b/, "setImmediate"],
  [/\bclearImmediate\b/, "clearImmediate"],
  [/\bprocess\b/, "process"],
  [/\bglobalThis\b/, "globalThis"],
  [/\bglobal\b/, "global"],
  [/\b__dirname\b/, "__dirname"],
  [/\b__filename\b/, "__filename"],
  [/\beval\s*\(/, "eval"],
];
// esbuild writes `node:crypto` as `crypto`; the scanner allows both.
const ALLOWED_IMPORTS = new Set(["zod/v4", "crypto", "node:crypto"]);

let failures = 0;
const ENTRIES = ["core", "charts/index", "values"];
for (const file of ENTRIES.flatMap((entry) => [`dist/${entry}.js`, `dist/${entry}.mjs`])) {
  const code = readFileSync(new URL(`../${file}`, import.meta.url), "utf8").replace(/\/\/# sourceMappingURL=.*$/m, "");
  for (const [pattern, name] of FORBIDDEN) {
    const match = pattern.exec(code);
    if (match) {
      failures += 1;
      const line = code.slice(0, match.index).split("\n").length;
      console.error(`${file}:${line}: forbidden ${name}`);
    }
  }
  const imports = [...code.matchAll(/(?:require\(|from\s+|import\s*\()\s*["']([^"']+)["']/g)].map((m) => m[1]);
  for (const name of imports) {
    if (!ALLOWED_IMPORTS.has(name)) {
      failures += 1;
      console.error(`${file}: imports ${name}; only ${[...ALLOWED_IMPORTS].join(", ")} is allowed`);
    }
  }
}
if (failures > 0) {
  console.error(`core bundle check: ${failures} problem(s)`);
  process.exit(1);
}
console.log(`core bundle check: no forbidden globals, no imports but ${[...ALLOWED_IMPORTS].join(", ")} in dist/{${ENTRIES.join(",")}}.{js,mjs}`);
