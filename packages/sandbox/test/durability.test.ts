import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LinkShortClient } from "@linkshort/client";
import { startSandbox } from "@linkshort/sandbox";

const root = join(__dirname, "../../..");

/** The sandbox's CLI from source, in its own process, so that it can be killed with SIGKILL. */
function startCli(args: string[]): { child: ChildProcess; ready: Promise<{ baseUrl: string; userKey: string }>; output: () => string } {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "packages/sandbox/src/cli.ts"), "--port", "0", "--json", ...args], {
    cwd: root,
    // The workspace packages from their sources, as in jest.
    env: { ...process.env, TSX_TSCONFIG_PATH: join(root, "tsconfig.json") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const ready = new Promise<{ baseUrl: string; userKey: string }>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split("\n").find((candidate) => candidate.startsWith("{"));
      if (line) resolve(JSON.parse(line) as { baseUrl: string; userKey: string });
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return { child, ready, output: () => output };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code)),
  );

describe("the data file survives kill -9 and is held by one sandbox at a time", () => {
  jest.setTimeout(60_000);

  it("every acknowledged write is on disk when the process is killed; the next start takes over the stale lock and removes stale temporary files", async () => {
    const folder = mkdtempSync(join(tmpdir(), "linkshort-durable-"));
    const dataFile = join(folder, "state.json");
    const first = startCli(["--data", dataFile, "--rate-limit", "10000/60"]);
    const { baseUrl, userKey } = await first.ready;
    try {
      expect(JSON.parse(readFileSync(`${dataFile}.lock`, "utf8"))).toMatchObject({ pid: first.child.pid, token: expect.stringMatching(/^[0-9a-f]{32}$/) });
      // A second sandbox on the same file, here or in another process, is refused while the first lives.
      await expect(startSandbox({ dataFile })).rejects.toThrow(`in use by another sandbox (process ${first.child.pid}`);
      const client = new LinkShortClient({ baseUrl, apiKey: userKey, rateLimit: false, maxRetries: 0 });
      const ids: number[] = [];
      for (let i = 0; i < 40; i += 1) ids.push((await client.links.create({ url: `https://example.com/durable/${i}` })).id);
      first.child.kill("SIGKILL");
    } finally {
      first.child.kill("SIGKILL");
      await exited(first.child);
    }
    writeFileSync(`${dataFile}.999999.tmp`, "half a state");
    const second = await startSandbox({ dataFile });
    try {
      const urls = second.store.state.links.map((link) => link.url);
      for (let i = 0; i < 40; i += 1) expect(urls).toContain(`https://example.com/durable/${i}`);
      expect(readdirSync(folder).sort()).toEqual(["state.json", "state.json.journal", "state.json.lock"]);
      expect(JSON.parse(readFileSync(`${dataFile}.lock`, "utf8"))).toMatchObject({ pid: process.pid });
    } finally {
      await second.close();
    }
    expect(existsSync(`${dataFile}.lock`)).toBe(false);
  });

  it("the CLI refuses a data file in a folder that does not exist, and never says it is listening", async () => {
    const missing = join(mkdtempSync(join(tmpdir(), "linkshort-durable-")), "nope", "state.json");
    const cli = startCli(["--data", missing]);
    cli.ready.catch(() => undefined);
    expect(await exited(cli.child)).toBe(1);
    expect(cli.output()).toContain("does not exist");
    expect(cli.output()).not.toMatch(/listening|baseUrl/);
  });
});
