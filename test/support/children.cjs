// The processes a test harness starts (Postgres, Redis, n8n): each one it tracks is ended with
// SIGKILL by a handler on this process's exit should the harness die before stopping it. One set
// and one handler for every harness that loads this file (test/support/postgres.cjs,
// test/n8n/queue-stack.mjs).
'use strict';

/** Pids still running, ended if this process exits without stopping them. */
const running = new Set();
process.on('exit', () => {
  for (const pid of running) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** Ends `pid` on this process's exit unless `release(pid)` comes first. */
function killOnExit(pid) {
  running.add(pid);
}

function release(pid) {
  running.delete(pid);
}

/** Ends `child` on this process's exit unless it has exited by then; answers `child`. */
function track(child) {
  const { pid } = child;
  running.add(pid);
  child.once('exit', () => running.delete(pid));
  return child;
}

/** Resolves once `child` has exited, killing it (SIGKILL) if it has not after `timeoutMs`. */
function waitForExit(child, timeoutMs) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The last 8,000 characters `child` wrote to stdout and stderr together, read when asked. */
function collectOutput(child) {
  let output = '';
  const collect = (chunk) => (output = (output + chunk).slice(-8000));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return () => output;
}

module.exports = { collectOutput, killOnExit, release, track, waitForExit };
