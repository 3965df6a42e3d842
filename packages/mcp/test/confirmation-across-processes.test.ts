/**
 * A client that starts a stdio server for every call (the MCP Inspector does; issue 53): the
 * preview of update_links or delete_links one process answered is confirmed in the next. The
 * secret that signs previews is kept in the index file's folder (made once, by whichever process
 * comes first, readable by its owner only) or given in LINKSHORT_MCP_CONFIRMATION_SECRET; without
 * either, a preview binds to the process that made it, as before.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { chmodSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONFIRMATION_SECRET_FILE, LocalAccountState } from "../src/account/local-state";
import { startSession, type Session } from "./helpers";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 10_000, windowMs: 60_000 } });
});
afterAll(() => sandbox.close());

/** One call in a process of its own, as a client that starts a server per call makes it. */
async function callAlone(args: string[], more: Record<string, string>, name: string, toolArgs: Record<string, unknown>) {
  const session: Session = await startSession({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, more }, args);
  try {
    return await session.call(name, toolArgs);
  } finally {
    await session.close();
  }
}

/** A preview in one process, its confirmation in another: the second's answer. */
async function previewThenConfirm(args: string[], more: Record<string, string> = {}) {
  const created = await callAlone(args, more, "shorten_link", { url: `https://example.com/per-call-${Date.now()}-${Math.random()}` });
  const change = { ids: [created.structured!.id], set: { url: "https://example.com/per-call-changed" } };
  const preview = await callAlone(args, more, "update_links", change);
  expect(preview.structured).toMatchObject({ stage: "preview", confirmation: expect.any(String) });
  return callAlone(args, more, "update_links", { ...change, confirmation: preview.structured!.confirmation });
}

test("with --index-file, a second process takes the first one's preview; the secret is kept in the folder, readable by its owner only", async () => {
  const folder = mkdtempSync(join(tmpdir(), "linkshort-per-call-"));
  const confirmed = await previewThenConfirm(["--index-file", join(folder, "link-index.json")]);
  expect(confirmed.structured).toMatchObject({ stage: "confirmed", counts: { done: 1 } });
  expect(statSync(join(folder, CONFIRMATION_SECRET_FILE)).mode & 0o777).toBe(0o600);
}, 60_000);

test("with LINKSHORT_MCP_CONFIRMATION_SECRET, a second process takes the first one's preview; without it or an index file, it refuses it", async () => {
  const secret = { LINKSHORT_MCP_CONFIRMATION_SECRET: "c".repeat(64) };
  expect((await previewThenConfirm([], secret)).structured).toMatchObject({ stage: "confirmed", counts: { done: 1 } });
  const refused = await previewThenConfirm([]);
  expect(refused.isError).toBe(true);
  expect(refused.text).toMatch(/confirmation: is not a preview of update_links this server made/);
}, 60_000);

test("two states over one folder, asking at once, make one secret between them and keep it", async () => {
  const folder = mkdtempSync(join(tmpdir(), "linkshort-per-call-"));
  const states = Array.from({ length: 4 }, () => new LocalAccountState(join(folder, "link-index.json")));
  const secrets = await Promise.all(states.map((state) => state.secret("request-state")));
  for (const secret of secrets) expect(Buffer.from(secret!).toString("hex")).toBe(Buffer.from(secrets[0]!).toString("hex"));
  expect(secrets[0]).toHaveLength(32);
  expect(readFileSync(join(folder, CONFIRMATION_SECRET_FILE), "utf8").trim()).toBe(Buffer.from(secrets[0]!).toString("hex"));
  // The environment's secret wins; the sign-in's stays each process's own.
  expect(await new LocalAccountState(join(folder, "link-index.json"), new Uint8Array(32).fill(1)).secret("request-state")).toEqual(new Uint8Array(32).fill(1));
  expect(await states[0]!.secret("sign-in")).toBeUndefined();
  expect(await new LocalAccountState().secret("request-state")).toBeUndefined();
  await Promise.all(states.map((state) => state.close()));
});

test("a secret file another user could have written or can read is not trusted: the server signs with its own key and says why", async () => {
  const folder = mkdtempSync(join(tmpdir(), "linkshort-per-call-"));
  const planted = join(folder, CONFIRMATION_SECRET_FILE);
  writeFileSync(planted, `${"ab".repeat(32)}\n`, { mode: 0o644 });
  chmodSync(planted, 0o644);
  const said: string[] = [];
  const state = new LocalAccountState(join(folder, "link-index.json"), undefined, (text) => said.push(text));
  expect(await state.secret("request-state")).toBeUndefined();
  expect(said).toEqual([
    `${planted} can be read or written by other users, so the secret in it that signs confirmations is not used: delete it, and a new one is made. Confirmations of update_links and delete_links are signed by this process alone: another process refuses its previews.`,
  ]);
  const linked = mkdtempSync(join(tmpdir(), "linkshort-per-call-"));
  symlinkSync(planted, join(linked, CONFIRMATION_SECRET_FILE));
  const viaLink = new LocalAccountState(join(linked, "link-index.json"), undefined, (text) => said.push(text));
  expect(await viaLink.secret("request-state")).toBeUndefined();
  expect(said[1]).toMatch(/confirmation\.secret is not a plain file/);
});
