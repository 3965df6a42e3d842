import * as z from "zod/v4";
import { UserCreateSchema, UserListSchema, type UserCreateInput, type UserListInput } from "../inputs";
import { PagePromise, singlePage } from "../pagination";
import { LoginLinkSchema, MessageSchema, UserCreatedSchema, UserSchema, type LoginLink, type MessageResult, type User, type UserCreated } from "../schemas";
import { validate } from "../validate";
import { dataOf, Resource, type RequestOptions } from "./shared";

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
