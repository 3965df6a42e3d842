import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { addQrCodes, fillLinks } from "../../client/test/fill-links";

interface Listed {
  id: number;
  date: string;
}

async function list(sandbox: Sandbox, path: string, field: "urls" | "qrs"): Promise<Listed[]> {
  const response = await fetch(`${sandbox.baseUrl}${path}`, { headers: { Authorization: `Bearer ${sandbox.userKey}` } });
  return ((await response.json()) as { data: Record<string, Listed[]> }).data[field]!;
}

/** 90 links and 90 QR codes of the user, 30 made in each of three seconds (the account has no others). */
function fill(sandbox: Sandbox) {
  const second = (i: number) => `2026-03-01 10:00:0${Math.floor(i / 30)}`;
  fillLinks(sandbox, 90);
  sandbox.store.state.links.filter((link) => link.userId === 2).forEach((link, i) => (link.date = second(i)));
  addQrCodes(sandbox, 90, { from: Date.UTC(2026, 2, 1, 10), perSecond: 30, name: "tie", title: (i) => `Tie ${i}` });
}

/** The distinct ids pages of 20 show (they split the runs of 30). */
async function idsOverPages(sandbox: Sandbox): Promise<number> {
  const pages = await Promise.all([1, 2, 3, 4, 5].map(async (page) => await list(sandbox, `/api/urls?order=date&limit=20&page=${page}`, "urls")));
  return new Set(pages.flat().map((item) => item.id)).size;
}

describe("dateTies: unstable (links and QR codes)", () => {
  it.each([
    ["links by date", "/api/urls?order=date&limit=90", "urls"],
    ["QR codes", "/api/qr?limit=90", "qrs"],
  ] as const)("%s: each request lists items of the same second in a new order, dates still newest first", async (_what, path, field) => {
    const sandbox = await startSandbox({ seed: "minimal", dateTies: "unstable", rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
    try {
      fill(sandbox);
      const answers = [await list(sandbox, path, field), await list(sandbox, path, field), await list(sandbox, path, field)];
      for (const items of answers) {
        expect(items.map((item) => item.date)).toEqual([...items.map((item) => item.date)].sort().reverse());
        expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
      }
      expect(new Set(answers.map((items) => items.map((item) => item.id).join(","))).size).toBeGreaterThan(1);
    } finally {
      await sandbox.close();
    }
  });

  it("off by default: items of the same second by id, the same on every request, so that pages splitting a run show each once; on, some show twice and others not at all", async () => {
    const sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
    try {
      fill(sandbox);
      const first = await list(sandbox, "/api/urls?order=date&limit=90", "urls");
      expect(first).toHaveLength(90);
      expect(await list(sandbox, "/api/urls?order=date&limit=90", "urls")).toEqual(first);
      expect(await idsOverPages(sandbox)).toBe(90);
      sandbox.dateTies = "unstable";
      let fewest = 90;
      for (let attempt = 0; attempt < 10; attempt += 1) fewest = Math.min(fewest, await idsOverPages(sandbox));
      expect(fewest).toBeLessThan(90);
    } finally {
      await sandbox.close();
    }
  });
});
