import { hashPassword } from "../credentials";
import { accountView } from "./answers";
import { isEmail, Failure, ok, route, text, type Route } from "./shared";

export const accountRoutes: Route[] = [
  route("GET", "/api/account", (c) => ok({ data: accountView(c.user, c.store.state.plans) })),
  route("PUT", "/api/account/update", (c) => {
    const { body, user } = c;
    if (body.email === undefined && body.password === undefined) throw new Failure("Please enter an email or a password.");
    if (body.email !== undefined) {
      if (!isEmail(text(body.email))) throw new Failure("Please enter a valid email.");
      if (c.store.state.users.some((other) => other !== user && other.email.toLowerCase() === text(body.email).toLowerCase()))
        throw new Failure("This email has already been used.");
    }
    if (body.password !== undefined && text(body.password).length < 5) throw new Failure("Password must be at least 5 characters.");
    if (body.email !== undefined) user.email = text(body.email);
    if (body.password !== undefined) user.passwordHash = hashPassword(text(body.password));
    return ok({ message: "Account has been successfully updated." });
  }),
];
