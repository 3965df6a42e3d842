import { randomBytes } from "node:crypto";
import { generateApiKey, hashPassword } from "../credentials";
import type { UserRecord } from "../persistence/state";
import { accountView, userView } from "./answers";
import { timestamp } from "../views/dates";
import { isEmail, Failure, TIMESTAMP, ok, removeItem, requireAdmin, route, text, type ApiBody, type ApiContext, type Route } from "./shared";

const USERNAME = /^[A-Za-z0-9]{3,20}$/;

function createUser(context: ApiContext): ApiBody {
  requireAdmin(context);
  const { body, store } = context;
  const username = text(body.username);
  const email = text(body.email);
  if (!USERNAME.test(username)) throw new Failure("Please enter a valid username.");
  if (!isEmail(email)) throw new Failure("Please enter a valid email.");
  if (text(body.password).length < 5) throw new Failure("Password must be at least 5 characters.");
  if (store.state.users.some((user) => user.username.toLowerCase() === username.toLowerCase())) throw new Failure("This username has already been used.");
  if (store.state.users.some((user) => user.email.toLowerCase() === email.toLowerCase())) throw new Failure("This email has already been used.");
  let planId: number | null = null;
  if (body.planid !== undefined && body.planid !== null && body.planid !== "") {
    planId = Number(body.planid);
    if (!store.state.plans.some((plan) => plan.id === planId)) throw new Failure("Plan does not exist.");
  }
  let expires: string | null = null;
  if (body.expiration !== undefined && body.expiration !== null && body.expiration !== "") {
    if (!TIMESTAMP.test(text(body.expiration))) throw new Failure("Please enter a valid expiration date.");
    expires = text(body.expiration);
  }
  const user: UserRecord = {
    id: store.nextId("users"),
    username,
    email,
    passwordHash: hashPassword(text(body.password)),
    apiKey: generateApiKey(),
    admin: false,
    planId,
    expires,
    registered: timestamp(context.now),
    avatar: `${context.baseUrl}/static/avatar/${username}.png`,
  };
  store.state.users.push(user);
  store.reindex();
  const message = "User has been registered.";
  return context.mode === "deployed" ? ok({ message, userid: user.id }) : ok({ message, data: { id: user.id, email: user.email, username: user.username } });
}

function deleteUser(context: ApiContext): ApiBody {
  requireAdmin(context);
  const { state } = context.store;
  const user = state.users.find((candidate) => candidate.id === Number(context.params[0]));
  if (!user) throw new Failure("User does not exist.");
  if (user.id === context.user.id) throw new Failure("You cannot delete your own account.");
  removeItem(state.users, user);
  const notTheirs = (item: { userId: number }) => item.userId !== user.id;
  state.domains = state.domains.filter(notTheirs);
  state.links = state.links.filter(notTheirs);
  state.pixels = state.pixels.filter(notTheirs);
  state.qrs = state.qrs.filter(notTheirs);
  state.splash = state.splash.filter(notTheirs);
  state.overlays = state.overlays.filter(notTheirs);
  context.store.reindex();
  return ok({ message: "User has been deleted." });
}

/** The user of the path, for an admin only. */
function adminUser(context: ApiContext): UserRecord {
  requireAdmin(context);
  const user = context.store.state.users.find((candidate) => candidate.id === Number(context.params[0]));
  if (!user) throw new Failure("User does not exist.");
  return user;
}

export const userRoutes: Route[] = [
  route("GET", "/api/users", (c) => {
    requireAdmin(c);
    const filter = c.query.get("filter");
    const email = c.query.get("email")?.toLowerCase();
    const users = c.store.state.users.filter((user) => {
      if (email && !user.email.toLowerCase().includes(email)) return false;
      if (filter === "admin") return user.admin;
      if (filter === "free" || filter === "pro") return accountView(user, c.store.state.plans).status === filter;
      return true;
    });
    return ok({ data: users.map((user) => userView(user, c.store.state.plans)) });
  }),
  route("GET", "/api/user/{id}", (c) => ok({ data: userView(adminUser(c), c.store.state.plans) })),
  route("POST", "/api/user/add", createUser),
  route("DELETE", "/api/user/{id}/delete", deleteUser),
  route("GET", "/api/user/login/{id}", (c) => {
    const user = adminUser(c);
    const token = randomBytes(24).toString("hex");
    c.store.state.sso.push({ token, userId: user.id, expiresAt: c.now + 60 * 60 * 1000, used: false });
    c.store.state.sso = c.store.state.sso.filter((entry) => !entry.used && entry.expiresAt > c.now);
    return ok({ url: `${c.baseUrl}/user/login/sso/${token}` });
  }),
];
