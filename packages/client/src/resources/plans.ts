import * as z from "zod/v4";
import { IdSchema, PlanSubscribeSchema, type PlanSubscribeInput } from "../inputs";
import { singlePage, type PagePromise } from "../pagination";
import { MessageSchema, PlanSchema, type MessageResult, type Plan } from "../schemas";
import { validateAll } from "../validate";
import { dataOf, Resource, type RequestOptions } from "./shared";

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
    return this.core.request(
      { method: "PUT", path: `/api/plan/${checked.planId}/user/${checked.userId}`, body: checked.body },
      MessageSchema,
      options,
    );
  }
}
