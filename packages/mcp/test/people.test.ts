/**
 * The people a signed-in server keeps: at most MAX_PEOPLE at once, and a person let go of is let go
 * of everywhere (their account's index holds their client no longer), so memory does not grow with
 * every person ever seen.
 */
import { People } from "../src/auth/people";
import { clientFor } from "../src/config/command-line";
import { forgetClient, serverLinkIndexFor } from "../src/account/server-indexes";

const BASE_URL = "http://127.0.0.1:9";
const keyOf = (name: string) => `${name}-0123456789abcdef0123456789abcdef`;

test("a person let go of (past the people kept) is no longer held by their account's index: one client followed however often they come back", async () => {
  const people = new People({ clientFor: (key) => clientFor(BASE_URL, key, 5), admin: false, say: () => undefined, letGo: forgetClient });
  const first = await people.person(keyOf("returning"));
  const index = serverLinkIndexFor(first.client);
  try {
    for (let round = 0; round < 3; round += 1) {
      // A thousand others come meanwhile: the returning person is let go of, and made again.
      for (let other = 0; other < 1_000; other += 1) await people.person(keyOf(`other-${round}-${other}`));
      const again = await people.person(keyOf("returning"));
      expect(again.client).not.toBe(first.client);
      expect(serverLinkIndexFor(again.client)).toBe(index);
    }
    expect(index.followed).toBe(1);
  } finally {
    await index.stop();
  }
});

test("a grant's person is the one kept for its account: the key is unwrapped only when the person was let go of", async () => {
  const people = new People({ clientFor: (key) => clientFor(BASE_URL, key, 5), admin: false, say: () => undefined, letGo: forgetClient });
  const key = keyOf("granted");
  const accountId = clientFor(BASE_URL, key, 5).accountId;
  const unwrap = jest.fn(() => Promise.resolve(key));
  const person = await people.personOfGrant(accountId, unwrap);
  expect(await people.personOfGrant(accountId, unwrap)).toBe(person);
  expect(await people.person(key)).toBe(person);
  expect(unwrap).toHaveBeenCalledTimes(1);
  // A key that cannot be unwrapped leaves nothing kept: the next request tries again.
  const failing = jest.fn(() => Promise.reject(new Error("not this server's key")));
  await expect(people.personOfGrant("another-account", failing)).rejects.toThrow("not this server's key");
  await expect(people.personOfGrant("another-account", failing)).rejects.toThrow("not this server's key");
  expect(failing).toHaveBeenCalledTimes(2);
});
