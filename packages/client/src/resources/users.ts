import * as z from "zod/v4";
import { PagePromise, singlePage } from "../pagination";
import { normaliser, Rejected, reshaped } from "../internal/readers";
import { validate } from "../internal/validate";
import { AccountSchema } from "./account";
import { email, identifier, password, positiveInteger, readIdentifier, required, text, timestampInput, TIMESTAMP_DESCRIPTION } from "./fields";
import { dataOf, MessageSchema, Resource, type MessageResult, type RequestOptions } from "./shared";

export const USER_FILTERS = ["admin", "free", "pro"] as const;
const USERNAME_PATTERN = /^[A-Za-z0-9]{3,20}$/;

export const UserListSchema = z.strictObject({
  filter: z
    .enum(USER_FILTERS, `must be one of ${USER_FILTERS.join(", ")}`)
    .optional()
    .describe("Only admin, free or pro users"),
  email: z.string("must be text").min(1, "must not be empty").optional().describe("Only users whose e-mail address matches this"),
});
export type UserListInput = z.input<typeof UserListSchema>;

export const UserCreateSchema = z.strictObject({
  username: z.string(required("must be text")).regex(USERNAME_PATTERN, "must be 3 to 20 letters or digits").describe("3 to 20 letters or digits"),
  email: email.describe("The user's e-mail address"),
  password: password.describe("At least 5 characters"),
  planid: positiveInteger.optional().describe("The plan to put the user on"),
  expiration: timestampInput.optional().describe(`When the plan ends: ${TIMESTAMP_DESCRIPTION}`),
});
export type UserCreateInput = z.input<typeof UserCreateSchema>;

export const UserSchema = AccountSchema.extend({
  planid: normaliser((value): number | null | Rejected => {
    if (value === null || value === undefined || value === "" || value === 0 || value === "0") return null;
    const id = readIdentifier(value);
    return id instanceof Rejected ? new Rejected("expected a plan id") : id;
  }),
  apikey: text,
});
export type User = z.output<typeof UserSchema>;

/** `data: {id, email, username}` on some versions, a bare `userid` on others. */
export const UserCreatedSchema = reshaped(
  z.object({
    data: z.object({ id: identifier, email: z.string().optional(), username: z.string().optional() }).optional(),
    userid: identifier.optional(),
    id: identifier.optional(),
  }),
  (body) => {
    const id = body.data?.id ?? body.userid ?? body.id;
    if (id === undefined) return new Rejected("no user id in the answer", ["data", "id"]);
    return { id, email: body.data?.email, username: body.data?.username };
  },
);
export type UserCreated = z.output<typeof UserCreatedSchema>;

export const LoginLinkSchema = z.object({ url: z.string() });
export type LoginLink = z.output<typeof LoginLinkSchema>;

const UserList = dataOf(z.array(UserSchema));
const UserAnswer = dataOf(UserSchema);

/** Administrators only. */
export class UsersResource extends Resource {
  /** Users, optionally filtered by status or searched by e-mail, as one page. */
  list(params?: UserListInput, options?: RequestOptions): PagePromise<User> {
    return this.checkedList("users.list", UserListSchema, params, (query) =>
      singlePage(() => this.core.request({ method: "GET", path: "/api/users", query }, UserList, options)),
    );
  }

  async get(id: number, options?: RequestOptions): Promise<User> {
    const checked = this.id("users.get", id);
    return this.core.request({ method: "GET", path: `/api/user/${checked}` }, UserAnswer, options);
  }

  /** Creates a user. Never retried once it may have reached the server. */
  async create(input: UserCreateInput, options?: RequestOptions): Promise<UserCreated> {
    const body = validate(UserCreateSchema, input, "users.create");
    return this.core.request({ method: "POST", path: "/api/user/add", body }, UserCreatedSchema, options);
  }

  async delete(id: number, options?: RequestOptions): Promise<MessageResult> {
    const checked = this.id("users.delete", id);
    return this.core.request({ method: "DELETE", path: `/api/user/${checked}/delete` }, MessageSchema, options);
  }

  /** A single-use login address for the user, valid for one hour. */
  async loginLink(id: number, options?: RequestOptions): Promise<LoginLink> {
    const checked = this.id("users.loginLink", id);
    return this.core.request({ method: "GET", path: `/api/user/login/${checked}` }, LoginLinkSchema, options);
  }
}
