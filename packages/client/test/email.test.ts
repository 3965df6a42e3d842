import { ValidationError } from "../src/core";
import { scripted } from "./helpers";

const ok = { json: { error: 0, id: 1, message: "ok", link: "https://s.io/qr/abcdef", data: { id: 1 } } };

async function issuesOf(call: Promise<unknown>): Promise<ReadonlyArray<{ field: string; message: string }>> {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).issues;
}

describe("e-mail addresses", () => {
  // Crafted for /^[^\s@]+@[^\s@]+\.[^\s@]+$/, which backtracks over every dot: 40 KB took 3.5 s.
  const crafted = (length: number) => `a@${".".repeat(length - 3)}@`;

  it("past 254 characters (RFC 5321) are refused by their length alone, naming the field, before any request", async () => {
    const { client, sent } = scripted([ok]);
    expect(await issuesOf(client.account.update({ email: crafted(40_000) }))).toEqual([{ field: "email", message: "must be at most 254 characters" }]);
    expect(await issuesOf(client.users.create({ username: "someone", email: `${"a".repeat(250)}@x.io`, password: "secret" }))).toEqual([
      { field: "email", message: "must be at most 254 characters" },
    ]);
    expect(await issuesOf(client.qrCodes.create({ type: "email", data: { email: crafted(1_000_000) } }))).toEqual([
      { field: "data.email", message: "must be at most 254 characters" },
    ]);
    expect(sent).toHaveLength(0);
  });

  it("are checked as before within the length", async () => {
    const { client, sent } = scripted(Array.from({ length: 10 }, () => ok));
    for (const email of ["a@b.c", "first.last+tag@sub.example.com", `${"a".repeat(240)}@example.com`]) {
      await client.account.update({ email });
    }
    expect(sent).toHaveLength(3);
    for (const email of ["", "a", "a@b", "a@.b", "a@b.", "a b@c.d", "a@b@c.d", "@b.c", "a@b c.d", crafted(254)]) {
      expect({ email, issues: await issuesOf(client.account.update({ email })) }).toEqual({
        email,
        issues: [{ field: "email", message: "must be a valid e-mail address" }],
      });
    }
  });
});
