import { AccountUpdateSchema, type AccountUpdateInput } from "../inputs";
import { AccountSchema, MessageSchema, type Account, type MessageResult } from "../schemas";
import { validate } from "../validate";
import { dataOf, Resource, type RequestOptions } from "./shared";

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
