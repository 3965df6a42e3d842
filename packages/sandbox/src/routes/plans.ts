import { PLAN_TYPES } from "@linkshort/client/core";
import { planView } from "./answers";
import { timestamp } from "../views/dates";
import { Failure, TIMESTAMP, ok, oneOf, requireAdmin, route, text, type Route } from "./shared";

/** When a subscription of this term, starting now, ends. */
function expiryFor(type: string, now: number): string {
  const date = new Date(now);
  if (type === "monthly") date.setUTCMonth(date.getUTCMonth() + 1);
  else if (type === "yearly") date.setUTCFullYear(date.getUTCFullYear() + 1);
  else date.setUTCFullYear(date.getUTCFullYear() + 100);
  return timestamp(date.getTime());
}

export const planRoutes: Route[] = [
  route("GET", "/api/plans", (c) => {
    requireAdmin(c);
    return ok({ data: c.store.state.plans.map(planView) });
  }),
  route("PUT", "/api/plan/{id}/user/{id}", (c) => {
    requireAdmin(c);
    const plan = c.store.state.plans.find((candidate) => candidate.id === Number(c.params[0]));
    if (!plan) throw new Failure("Plan does not exist.");
    const user = c.store.state.users.find((candidate) => candidate.id === Number(c.params[1]));
    if (!user) throw new Failure("User does not exist.");
    const type = text(c.body.type);
    if (!oneOf(PLAN_TYPES, type)) throw new Failure("Please choose a valid subscription type: monthly, yearly or lifetime.");
    const expiration = c.body.expiration === undefined || c.body.expiration === "" ? undefined : text(c.body.expiration);
    if (expiration !== undefined && !TIMESTAMP.test(expiration)) throw new Failure("Please enter a valid expiration date.");
    user.planId = plan.id;
    user.expires = expiration ?? expiryFor(type, c.now);
    return ok({ message: "User has been subscribed to this plan." });
  }),
];
