import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { demoWeekVisits, startSandbox, type Sandbox } from "@linkshort/sandbox";

const script = join(__dirname, "../../scripts/demo-visits.mjs");

/** The headers `npm start` sends with each demo visit (an ES module, run by Node itself). */
function headersOf(visits: Array<{ at: number; country: string }>): Array<Record<string, string>> {
  const code = `const m = await import(${JSON.stringify(script)}); process.stdout.write(JSON.stringify(${JSON.stringify(visits)}.map(m.demoVisitHeaders)));`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" })) as Array<Record<string, string>>;
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
});
afterAll(() => sandbox.close());

describe("the demo week `npm start` replays", () => {
  it("names the visitors' countries, browsers and systems: no demo statistic reads Unknown", async () => {
    const week = demoWeekVisits(Date.now()).slice(0, 200);
    const headers = headersOf(week);
    for (const [index, visit] of week.entries())
      await (await fetch(`${sandbox.baseUrl}/${visit.alias}`, { redirect: "manual", headers: headers[index] })).text();
    const demo = sandbox.store.state.links.filter((link) => week.some((visit) => visit.alias === link.alias) && link.userId === 2);
    expect(demo.length).toBeGreaterThan(0);
    for (const link of demo) {
      for (const counts of [link.stats.countries, link.stats.browsers, link.stats.os]) expect(Object.keys(counts)).not.toContain("Unknown");
      expect(Object.keys(link.stats.referrers).length).toBeGreaterThan(1);
    }
  });
});
