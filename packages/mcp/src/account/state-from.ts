/** The account state the command line names; the shared one is imported only when a store is named, so a stdio server's start loads no pg. */
import { CONFIRMATION_SECRET_VARIABLE, indexFileFrom, secretFrom, storeFrom, type CommandLine } from "../config/command-line";
import { LocalAccountState } from "./local-state";
import type { AccountState } from "./state";

/**
 * The state the command line names: the store of `--store` (or the environment), else this process's
 * own (with `--index-file`'s file, which keeps one account: with --sign-in each person's is in memory).
 */
export async function accountStateFrom(env: NodeJS.ProcessEnv, commandLine: CommandLine, say: (text: string) => void): Promise<AccountState> {
  const url = storeFrom(env, commandLine);
  if (url === undefined)
    return new LocalAccountState(
      commandLine.http?.signIn === undefined ? indexFileFrom(env, commandLine) : undefined,
      secretFrom(env, CONFIRMATION_SECRET_VARIABLE),
      say,
    );
  const { SharedState } = await import("./shared/state");
  return SharedState.openNamed(url, env, say);
}
