import * as z from "zod/v4";
import { singlePage, type PagePromise } from "../pagination";
import { isPlainObject, normaliser, Rejected } from "../internal/readers";
import { validateAll } from "../internal/validate";
import { count, flag, IdSchema, identifier, isEmptyMap, readCount, text, timestampInput, TIMESTAMP_DESCRIPTION } from "./fields";
import { dataOf, MessageSchema, Resource, type MessageResult, type RequestOptions } from "./shared";

export const PLAN_TYPES = ["monthly", "yearly", "lifetime"] as const;

export const PlanSubscribeSchema = z.strictObject({
  type: z
    .enum(PLAN_TYPES, { error: (issue) => (issue.input === undefined ? "is required" : `must be one of ${PLAN_TYPES.join(", ")}`) })
    .describe("Billing period: monthly, yearly or lifetime"),
  expiration: timestampInput.optional().describe(`When the subscription ends: ${TIMESTAMP_DESCRIPTION}. Omit to derive it from type`),
});
export type PlanSubscribeInput = z.input<typeof PlanSubscribeSchema>;

const featureLimit = z.object({ enabled: flag });
const countedLimit = z.object({ enabled: flag, count: count });
const price = normaliser((value): number | null | Rejected => {
  if (value === null || value === undefined) return null;
  const parsed = readCount(value);
  return parsed instanceof Rejected ? new Rejected("expected a price") : parsed;
});
const PricesSchema = z.object({ monthly: price, yearly: price, lifetime: price });

export const PlanSchema = z.object({
  id: identifier,
  name: text,
  free: flag,
  prices: normaliser((value): z.output<typeof PricesSchema> | null | Rejected => {
    if (isEmptyMap(value)) return null;
    if (!isPlainObject(value)) return new Rejected("expected prices");
    const parsed = PricesSchema.safeParse(value);
    return parsed.success ? parsed.data : new Rejected("expected numeric prices");
  }),
  limits: z.object({
    links: count,
    clicks: count,
    retention: count,
    custom: featureLimit.optional(),
    multiple: featureLimit.optional(),
    alias: featureLimit.optional(),
    device: featureLimit.optional(),
    geo: featureLimit.optional(),
    bundle: featureLimit.optional(),
    parameters: featureLimit.optional(),
    export: featureLimit.optional(),
    api: featureLimit.optional(),
    team: countedLimit.optional(),
    splash: countedLimit.optional(),
    overlay: countedLimit.optional(),
    pixels: countedLimit.optional(),
    domain: countedLimit.optional(),
  }),
});
export type Plan = z.output<typeof PlanSchema>;

const PlanList = dataOf(z.array(PlanSchema));

/** Administrators only. */
export class PlansResource extends Resource {
  /** Every plan, as one page. */
  list(options?: RequestOptions): PagePromise<Plan> {
    return singlePage(() => this.core.request({ method: "GET", path: "/api/plans" }, PlanList, options));
  }

  /** Puts a user on a plan; without `expiration` the server derives it from `type`. */
  async subscribe(planId: number, userId: number, input: PlanSubscribeInput, options?: RequestOptions): Promise<MessageResult> {
    const checked = validateAll(
      { planId: [IdSchema, planId, "planId"], userId: [IdSchema, userId, "userId"], body: [PlanSubscribeSchema, input, ""] },
      "plans.subscribe",
    );
    return this.core.request({ method: "PUT", path: `/api/plan/${checked.planId}/user/${checked.userId}`, body: checked.body }, MessageSchema, options);
  }
}
