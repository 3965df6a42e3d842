/**
 * ARCHITECTURE's "Adding a field to an endpoint": an optional field of link creation that the
 * link's details echo is five source files, and from those it reaches every front end. Where a
 * front end lists a link's fields by hand the compiler asks for the new one (MCP's `sameAs`, the
 * client's `REUSE_DETAILS_MATCH`); what it cannot ask for is checked here: that the list names the
 * files that hold a link's fields today, and that the outputs built from the client's details (n8n's
 * simplified link) carry a field they were never told of.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { LinkDetails, Statistics } from "@linkshort/client";
import { simpleLink } from "../../nodes/nodes/LinkShort/actions/simplify";
import { LinkDetailsSchema } from "../../packages/client/src/resources/links/schemas";
import { LinkDetailsOutput } from "../../packages/mcp/src/tools/outputs";

const ROOT = join(__dirname, "../..");

/** The files of the walk-through's table, in its order. */
function walkThroughFiles(): string[] {
  const architecture = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
  const section = /^## Adding a field to an endpoint\n([\s\S]*?)^## /m.exec(architecture)?.[1];
  if (section === undefined) throw new Error('ARCHITECTURE.md has no "## Adding a field to an endpoint" section');
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]!);
}

const details: LinkDetails = {
  id: 7,
  shorturl: "https://s.example/spring",
  longurl: "https://example.com/spring",
  title: "Spring",
  description: "The sale",
  location: { canada: "https://example.ca" },
  device: {},
  expiry: null,
  date: "2026-03-01 10:00:00",
};
const stats: Statistics = { clicks: 3, uniqueClicks: 2, topCountries: { Canada: 3 }, topReferrers: {}, topBrowsers: {}, topOs: {}, socialCount: {} };

test("the walk-through names five source files, each of which writes a link's metadescription or its details' description today", () => {
  const files = walkThroughFiles();
  expect(files).toEqual([
    "packages/client/src/resources/links/schemas.ts",
    "packages/sandbox/src/model/link-record.ts",
    "packages/mcp/src/tools/outputs.ts",
    "nodes/nodes/LinkShort/actions/link/fields.ts",
    "raycast-extension/src/values/link-values.ts",
  ]);
  for (const file of files) {
    expect(existsSync(join(ROOT, file))).toBe(true);
    expect(readFileSync(join(ROOT, file), "utf8")).toMatch(/\bmetadescription\b|\bdescription: /);
  }
});

test("every field of the client's link details is in MCP's output schema", () => {
  expect(Object.keys(LinkDetailsOutput.shape)).toEqual(Object.keys(LinkDetailsSchema.shape));
});

test("n8n's simplified link carries every field of the client's link details but the targeting maps, in the details' order", () => {
  const simple = simpleLink({ details, stats });
  const carried = Object.keys(LinkDetailsSchema.shape).filter((field) => field !== "location" && field !== "device");
  expect(Object.keys(simple).filter((key) => key in details)).toEqual(carried);
});

test("a field the client's link details gain reaches n8n's simplified link with no line of its own, beside the other written fields", () => {
  const withNote = { ...details, note: "for the spring newsletter" } as LinkDetails;
  const simple = simpleLink({ details: withNote, stats });
  expect(simple.note).toBe("for the spring newsletter");
  expect(Object.keys(simple)).toEqual([
    "id",
    "alias",
    "shorturl",
    "longurl",
    "title",
    "description",
    "note",
    "clicks",
    "uniqueClicks",
    "topCountries",
    "topReferrers",
    "topBrowsers",
    "topOs",
    "expiry",
    "date",
  ]);
});
