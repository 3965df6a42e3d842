/** get_account: the account the server acts as. */
import { AccountOutput } from "./outputs";
import { define, READ } from "./define";

export const getAccount = define({
  name: "get_account",
  title: "Get the account",
  description: "Returns the account this server acts as: id, username, e-mail, status and when its plan expires.",
  output: AccountOutput,
  annotations: READ,
  run: (_args, { client, signal }) => client.account.get({ signal }),
});
