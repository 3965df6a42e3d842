// What the end-to-end suites (e2e, editor, queue mode) share: named checks that each pass or fail
// on their own, an assert, and the closing line the test runner reads ("<suite>: N passed, N failed").

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** Polls `condition` until it holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(what, condition, timeoutMs = 30_000, intervalMs = 500) {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * A suite's checks. `check(name, body, { after })` runs one and records it; `after(ok)` may add to
 * its line (the editor's screenshot). `finish(extraFailures)` prints the closing line and exits.
 */
export function checkList(suite) {
  const results = [];
  return {
    results,
    async check(name, body, { after } = {}) {
      const started = Date.now();
      try {
        await body();
        results.push({ name, ok: true });
        const note = (await after?.(true)) ?? '';
        console.log(`  ✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)${note ? ` ${note}` : ''}`);
      } catch (error) {
        results.push({ name, ok: false });
        const note = (await after?.(false)) ?? '';
        // The whole message (it may quote a log), then the first frames of the stack.
        const frames = String(error?.stack ?? '')
          .split('\n')
          .filter((line) => /^\s+at /.test(line))
          .slice(0, 6)
          .map((line) => line.trim());
        const text = [`${error?.name ?? 'Error'}: ${error?.message ?? error}`, ...frames].join('\n').split('\n');
        console.log(`  ✕ ${name}\n      ${text.join('\n      ')}${note ? `\n      ${note}` : ''}`);
      }
    },
    /** A failure outside any check (the set-up, a time limit). */
    fail(what) {
      results.push({ name: what, ok: false });
    },
    finish() {
      const passed = results.filter((result) => result.ok).length;
      console.log(`${suite}: ${passed} passed, ${results.length - passed} failed`);
      process.exit(passed === results.length ? 0 : 1);
    },
  };
}
