// Proves that the `core` bundle has nothing n8n's verification scanner rejects: no import but
// zod/v4, and none of the forbidden globals (timers, process, global, globalThis).
import { readFileSync } from "node:fs";

const FORBIDDEN = [
  [/\bsetTimeout\b/, "setTimeout"],
  [/\bsetInterval\b/, "setInterval"],
  [/\bsetImmediate\b/, "setImmediate"],
  [/\bprocess\b/, "process"],
  [/\bglobalThis\b/, "globalThis"],
  [/\bglobal\b/, "global"],
  [/\b__dirname\b/, "__dirname"],
  [/\beval\s*\(/, "eval"],
];
const ALLOWED_IMPORTS = new Set(["zod/v4"]);

let failures = 0;
for (const file of ["dist/core.js", "dist/core.mjs"]) {
  const code = readFileSync(new URL(`../${file}`, import.meta.url), "utf8")
    .replace(/\/\/# sourceMappingURL=.*$/m, "");
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
console.log("core bundle check: no forbidden globals or imports in dist/core.{js,mjs}");
