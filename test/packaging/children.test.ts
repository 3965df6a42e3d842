/**
 * The processes a test harness starts end with it (test/support/children.cjs, used by the
 * throwaway Postgres and the n8n queue stack): a child it tracks is killed when the harness exits
 * without stopping it; one it released is left running.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const CHILDREN = join(__dirname, "../support/children.cjs");

/** Whether `pid` is a process still running (a zombie waiting for its parent to read its status is not). */
function running(pid: number): boolean {
  const status = `/proc/${pid}/status`;
  return existsSync(status) && !/^State:\s+Z/m.test(readFileSync(status, "utf8"));
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

test("a harness that exits without stopping its children ends the ones it tracks, not the ones it released", async () => {
  const harness = `
    const { spawn } = require("node:child_process");
    const { killOnExit, release, track } = require(${JSON.stringify(CHILDREN)});
    const tracked = track(spawn("sleep", ["60"], { stdio: "ignore" }));
    const byPid = spawn("sleep", ["60"], { stdio: "ignore" });
    killOnExit(byPid.pid);
    const released = spawn("sleep", ["60"], { stdio: "ignore" });
    killOnExit(released.pid);
    release(released.pid);
    console.log(JSON.stringify([tracked.pid, byPid.pid, released.pid]));
    process.exit(0);
  `;
  const run = spawnSync(process.execPath, ["-e", harness], { encoding: "utf8", timeout: 10_000 });
  expect(run.status).toBe(0);
  const [tracked, byPid, released] = JSON.parse(run.stdout) as [number, number, number];
  try {
    expect(await until(() => !running(tracked) && !running(byPid))).toBe(true);
    expect(running(released)).toBe(true);
  } finally {
    for (const pid of [tracked, byPid, released]) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
});
