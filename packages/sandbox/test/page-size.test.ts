import { spawn } from "node:child_process";
import { join } from "node:path";
import { startSandbox } from "@linkshort/sandbox";

const CLI = join(__dirname, "../dist/cli.js");

async function listPage(baseUrl: string, key: string, query: string) {
  const response = await fetch(`${baseUrl}/api/urls?${query}`, { headers: { Authorization: `Bearer ${key}` } });
  return ((await response.json()) as { data: { perpage: number; maxpage: number; urls: unknown[] } }).data;
}

describe("page size", () => {
  it("gives as many items a page as limit asks by default (deployed servers document no maximum)", async () => {
    const sandbox = await startSandbox({ seed: { links: 1_500 } });
    try {
      const page = await listPage(sandbox.baseUrl, sandbox.userKey, "limit=1000");
      expect(page).toMatchObject({ perpage: 1000, maxpage: 2 });
      expect(page.urls).toHaveLength(1000);
    } finally {
      await sandbox.close();
    }
  });

  it("maxPageSize caps pages, and perpage and maxpage say the size given", async () => {
    const sandbox = await startSandbox({ seed: { links: 1_500 }, maxPageSize: 100 });
    try {
      const page = await listPage(sandbox.baseUrl, sandbox.userKey, "limit=1000&page=2");
      expect(page).toMatchObject({ perpage: 100, maxpage: 15 });
      expect(page.urls).toHaveLength(100);
      sandbox.maxPageSize = undefined;
      expect((await listPage(sandbox.baseUrl, sandbox.userKey, "limit=1000")).perpage).toBe(1000);
    } finally {
      await sandbox.close();
    }
  });

  it('oversizedPages "refuse" answers a limit above the maximum with the deployed servers\' error envelope, and a limit within it as usual', async () => {
    const sandbox = await startSandbox({ seed: { links: 300 }, maxPageSize: 100, oversizedPages: "refuse" });
    try {
      const response = await fetch(`${sandbox.baseUrl}/api/urls?limit=101`, { headers: { Authorization: `Bearer ${sandbox.userKey}` } });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ error: 1, message: "The limit must be between 1 and 100." });
      expect(await listPage(sandbox.baseUrl, sandbox.userKey, "limit=100&page=3")).toMatchObject({ perpage: 100, currentpage: 3, maxpage: 3 });
      sandbox.oversizedPages = "cap";
      expect((await listPage(sandbox.baseUrl, sandbox.userKey, "limit=1000")).perpage).toBe(100);
    } finally {
      await sandbox.close();
    }
  });

  it('oversizedPages "echo" gives pages of the maximum whose perpage repeats the limit asked, with maxpage and nextpage counting pages of the maximum', async () => {
    const sandbox = await startSandbox({ seed: { links: 475 }, maxPageSize: 50, oversizedPages: "echo" });
    try {
      const first = await listPage(sandbox.baseUrl, sandbox.userKey, "limit=1000");
      expect(first).toMatchObject({ perpage: 1000, currentpage: 1, nextpage: 2, maxpage: 10 });
      expect(first.urls).toHaveLength(50);
      const second = await listPage(sandbox.baseUrl, sandbox.userKey, "limit=1000&page=2");
      expect(second.urls).toHaveLength(50);
      expect(second.urls).not.toContainEqual(first.urls[0]);
      const last = await listPage(sandbox.baseUrl, sandbox.userKey, "limit=1000&page=10");
      expect(last).toMatchObject({ perpage: 1000, maxpage: 10 });
      expect(last.urls).toHaveLength(25);
      expect((await listPage(sandbox.baseUrl, sandbox.userKey, "limit=20")).perpage).toBe(20);
    } finally {
      await sandbox.close();
    }
  });

  it("refuses an oversizedPages that is not one of its choices, naming it", async () => {
    await expect(startSandbox({ oversizedPages: "drop" as never })).rejects.toThrow('oversizedPages: "drop" must be one of cap, refuse, echo');
  });

  it("refuses a maxPageSize that is not a positive whole number, naming it", async () => {
    await expect(startSandbox({ maxPageSize: 0 })).rejects.toThrow("maxPageSize: 0 must be a positive whole number");
  });

  const run = (args: string[]) => spawn(process.execPath, [CLI, "--port", "0", "--json", ...args], { stdio: ["ignore", "pipe", "pipe"] });

  it("linkshort-sandbox --max-page-size N caps pages", async () => {
    const cli = run(["--seed", "links:300", "--max-page-size", "50"]);
    try {
      const line = await new Promise<string>((resolve, reject) => {
        cli.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString()));
        cli.once("exit", (code) => reject(new Error(`exited ${code}`)));
      });
      const { baseUrl, userKey } = JSON.parse(line) as Record<string, string>;
      expect(await listPage(baseUrl!, userKey!, "limit=1000")).toMatchObject({ perpage: 50, maxpage: 6 });
    } finally {
      cli.kill("SIGTERM");
    }
  });

  it("linkshort-sandbox --oversized-pages refuse answers a limit above --max-page-size with the servers' error", async () => {
    const cli = run(["--seed", "links:300", "--max-page-size", "100", "--oversized-pages", "refuse"]);
    try {
      const line = await new Promise<string>((resolve, reject) => {
        cli.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString()));
        cli.once("exit", (code) => reject(new Error(`exited ${code}`)));
      });
      const { baseUrl, userKey } = JSON.parse(line) as Record<string, string>;
      const response = await fetch(`${baseUrl!}/api/urls?limit=1000`, { headers: { Authorization: `Bearer ${userKey!}` } });
      expect(await response.json()).toEqual({ error: 1, message: "The limit must be between 1 and 100." });
    } finally {
      cli.kill("SIGTERM");
    }
  });

  it("linkshort-sandbox refuses an --oversized-pages that is not one of its choices, naming the flag", async () => {
    const cli = run(["--oversized-pages", "drop"]);
    let stderr = "";
    cli.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => cli.once("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('--oversized-pages: "drop" must be one of cap, refuse, echo');
  });

  it("linkshort-sandbox refuses a --max-page-size that is not a positive whole number, naming the flag", async () => {
    const cli = run(["--max-page-size", "0"]);
    let stderr = "";
    cli.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => cli.once("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('--max-page-size: "0" must be a positive whole number');
  });
});
