/** Plans and users: administrators' tools, offered only with `--admin` and an administrator's key. */
import { IdSchema, PlanSubscribeSchema, UserCreateSchema, UserListSchema, type User } from "@linkshort/client";
import * as z from "zod/v4";
import { CreatedUserOutput, MessageOutput, PlansOutput, UserOutput, UsersOutput, type UserWithoutKey } from "./outputs";
import { CHANGE, CREATE, described, define, idOf, READ } from "./define";

/** The user's fields but its API key, listed one by one so that a new field is shown only once it is added here. */
function withoutKey(user: User): UserWithoutKey {
  const { id, email, username, avatar, status, expires, registered, planid } = user;
  return { id, email, username, avatar, status, expires, registered, planid };
}

export const listPlans = define({
  name: "list_plans",
  title: "List plans (admin)",
  description: "Lists the service's subscription plans with their prices and limits. Administrators only.",
  output: PlansOutput,
  annotations: READ,
  admin: true,
  run: async (_args, { client, signal }) => ({ plans: await client.plans.list({ signal }).toArray() }),
});

export const subscribeUserToPlan = define({
  name: "subscribe_user_to_plan",
  title: "Put a user on a plan (admin)",
  description: "Subscribes a user to a plan (ids from list_users and list_plans). Administrators only.",
  input: z.strictObject({
    planId: IdSchema.describe("The plan's id"),
    userId: IdSchema.describe("The user's id"),
    ...described(PlanSubscribeSchema),
  }),
  output: MessageOutput,
  annotations: CHANGE,
  admin: true,
  run: ({ planId, userId, ...subscription }, { client, signal }) => client.plans.subscribe(planId, userId, subscription, { signal }),
});

export const listUsers = define({
  name: "list_users",
  title: "List users (admin)",
  description: "Lists the service's users, optionally only admins, free or pro users, or those with an e-mail address. Administrators only.",
  input: z.strictObject(described(UserListSchema)),
  output: UsersOutput,
  annotations: READ,
  admin: true,
  run: async (args, { client, signal }) => ({ users: (await client.users.list(args, { signal }).toArray()).map(withoutKey) }),
});

export const getUser = define({
  name: "get_user",
  title: "Get a user (admin)",
  description: "Returns one user's account and plan. Administrators only.",
  input: z.strictObject(idOf("user")),
  output: UserOutput,
  annotations: READ,
  admin: true,
  run: async ({ id }, { client, signal }) => withoutKey(await client.users.get(id, { signal })),
});

export const createUser = define({
  name: "create_user",
  title: "Create a user (admin)",
  description: "Creates a user account. Each call creates a new user. Administrators only.",
  input: z.strictObject(described(UserCreateSchema, { planid: "The plan to put the user on (from list_plans)" })),
  output: CreatedUserOutput,
  annotations: CREATE,
  admin: true,
  run: (args, { client, signal }) => client.users.create(args, { signal }),
});

export const deleteUser = define({
  name: "delete_user",
  title: "Delete a user (admin)",
  description: "Deletes a user account for good. Ask before deleting. Administrators only.",
  input: z.strictObject(idOf("user")),
  output: MessageOutput,
  annotations: CHANGE,
  confirmation: ({ id }) => `Delete user ${id} and their account for good?`,
  admin: true,
  run: ({ id }, { client, signal }) => client.users.delete(id, { signal }),
});
