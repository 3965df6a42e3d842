/** The administrators' tools: only with --admin, working with an admin key, not offered to a user's key (admin-role.test.ts); no user's API key is ever shown. */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { startSession, type Session } from "./helpers";

const ADMIN_TOOLS = ["create_user", "delete_user", "get_user", "list_plans", "list_users", "subscribe_user_to_plan"];

let sandbox: Sandbox;
let admin: Session;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
  admin = await startSession({ baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey }, ["--admin"]);
});

afterAll(async () => {
  const said = [...admin.transcript, admin.stderr()].join("\n");
  await admin.close();
  await sandbox.close();
  expect(said).not.toContain(sandbox.adminKey);
  expect(said).not.toContain(sandbox.userKey);
  expect(said).not.toMatch(/apikey/);
});

test("--admin adds the plan and user tools to the user tools", async () => {
  const names = (await admin.client.listTools()).tools.map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(ADMIN_TOOLS));
  expect(names).toHaveLength(11 + ADMIN_TOOLS.length);
});

test("plans and users: list, create, get, subscribe, delete", async () => {
  const plans = (await admin.call("list_plans")).structured as { plans: Array<{ id: number; free: boolean; limits: { links: number } }> };
  expect(plans.plans.length).toBeGreaterThan(0);
  const paid = plans.plans.find((plan) => !plan.free)!;

  const users = (await admin.call("list_users")).structured as { users: Array<{ id: number; username: string }> };
  expect(users.users.length).toBeGreaterThanOrEqual(2);
  for (const user of users.users) expect(user).not.toHaveProperty("apikey");

  const created = await admin.call("create_user", { username: "mcpuser", email: "mcp@example.com", password: "secret-pass" });
  expect(created.isError).toBe(false);
  const { id } = created.structured as { id: number };
  expect((await admin.call("get_user", { id })).structured).toMatchObject({ id, username: "mcpuser", email: "mcp@example.com" });
  expect((await admin.call("list_users", { email: "mcp@example.com" })).structured).toMatchObject({ users: [{ id }] });

  const subscribed = await admin.call("subscribe_user_to_plan", { planId: paid.id, userId: id, type: "monthly" });
  expect(subscribed.isError).toBe(false);
  expect((await admin.call("get_user", { id })).structured).toMatchObject({ planid: paid.id });

  expect((await admin.call("delete_user", { id })).isError).toBe(false);
  expect((await admin.call("get_user", { id })).text).toMatch(/^Not found/);
});

test("bad admin input names the fields", async () => {
  const bad = await admin.call("create_user", { username: "a!", email: "nope", password: "123" });
  expect(bad.isError).toBe(true);
  for (const field of ["username", "email", "password"]) expect(bad.text).toContain(field);
  const badPlan = await admin.call("subscribe_user_to_plan", { planId: 1, userId: 1, type: "weekly" });
  expect(badPlan.text).toMatch(/must be one of monthly, yearly, lifetime at type/);
});
