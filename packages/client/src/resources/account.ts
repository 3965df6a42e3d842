import * as z from "zod/v4";
import { validate } from "../internal/validate";
import { email, identifier, password, text, timestamp } from "./fields";
import { dataOf, MessageSchema, Resource, type MessageResult, type RequestOptions } from "./shared";

export const AccountUpdateSchema = z
  .strictObject({ email: email.optional(), password: password.optional() })
  .refine((input) => input.email !== undefined || input.password !== undefined, {
    message: "give email, password or both",
    path: ["email"],
    when: (payload) => payload.issues.length === 0,
  });
export type AccountUpdateInput = z.input<typeof AccountUpdateSchema>;

export const AccountSchema = z.object({
  id: identifier,
  email: text,
  username: text,
  avatar: text,
  status: text,
  expires: timestamp,
  registered: timestamp,
});
export type Account = z.output<typeof AccountSchema>;

const AccountAnswer = dataOf(AccountSchema);

export class AccountResource extends Resource {
  /** The key owner's own account. */
  get(options?: RequestOptions): Promise<Account> {
    return this.core.request({ method: "GET", path: "/api/account" }, AccountAnswer, options);
  }

  /** Changes the e-mail address, the password or both. */
  async update(input: AccountUpdateInput, options?: RequestOptions): Promise<MessageResult> {
    const body = validate(AccountUpdateSchema, input, "account.update");
    return this.core.request({ method: "PUT", path: "/api/account/update", body }, MessageSchema, options);
  }
}
