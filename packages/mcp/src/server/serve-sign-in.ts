/**
 * `linkshort-mcp --http PORT --sign-in`: everyone signs in as themselves. Loaded by the CLI only for
 * this mode, so that a stdio server, spawned for every conversation, never loads the sign-in (jose)
 * or the shared store (pg).
 */
import { accountStateFrom } from "../account/state-from";
import { People, type Person } from "../auth/people";
import { API_KEY_HEADER } from "../auth/sign-in";
import { redactSecrets } from "../auth/tokens";
import { clientFor, clientFromEnvironment, ConfigError, TOKEN_VARIABLE, tokenFrom, type CommandLine, type SignInCommandLine } from "../config/command-line";
import { publicUrlFrom, signInSecretFrom, trustedProxiesFrom } from "../config/sign-in-options";
import { logUnexpectedFailures } from "../failures/unexpected";
import { startHttpServer, type HttpServerOptions } from "./http";
import { createLinkShortMcpServer } from "./server";

/**
 * Everyone signs in as themselves: each request acts as its person's own account (their client, so
 * their rate budget and link index; the admin tools only for administrators' keys, with --admin).
 */
export async function serveSignIn(
  commandLine: CommandLine,
  signIn: SignInCommandLine,
  say: (text: string) => void,
  shown: (baseUrl: string) => string,
): Promise<void> {
  const { host, port, allowedHosts } = commandLine.http!;
  const baseClient = clientFromEnvironment(process.env, commandLine.maxWaitSeconds, true);
  if (tokenFrom(process.env, undefined) !== undefined)
    throw new ConfigError(`${TOKEN_VARIABLE} and --sign-in exclude each other: with --sign-in everyone signs in with their own key`);
  const publicUrl = publicUrlFrom(process.env, signIn);
  const trustedProxies = trustedProxiesFrom(process.env, signIn);
  const state = await accountStateFrom(process.env, commandLine, say);
  // A key is checked by a client of its own, outside the shared rate budget: a key the service refuses writes nothing to the store.
  const checkClient = (apiKey: string) => clientFor(baseClient.baseUrl, apiKey, commandLine.maxWaitSeconds);
  const personalClient = (apiKey: string) => state.clientFor(baseClient.baseUrl, apiKey, commandLine.maxWaitSeconds);
  const people = new People({
    clientFor: personalClient,
    checkClientFor: checkClient,
    admin: commandLine.admin,
    say,
    letGo: (client) => state.forgetClient(client),
  });
  // Any person's key, and any token, out of what is logged.
  const redact = (text: string) => redactSecrets(people.redact(text));
  logUnexpectedFailures(say, redact);
  // With a store, every replica signs with the same secret (the environment's, else one the store keeps).
  const secret = signInSecretFrom(process.env) ?? (await state.secret("sign-in"));
  const requestStateKey = await state.secret("request-state");
  const store = state.authStore;
  const options: HttpServerOptions = {
    host,
    port,
    allowedHosts,
    redact,
    signIn: {
      people,
      serviceLabel: shown(baseClient.baseUrl),
      allowInsecureClientMetadata: signIn.allowLocalClientMetadata,
      ...(publicUrl !== undefined ? { publicUrl } : {}),
      ...(secret !== undefined ? { secret } : {}),
      ...(store !== undefined ? { store } : {}),
      ...(trustedProxies !== undefined ? { trustedProxies } : {}),
    },
  };
  const create = (person?: Person) => {
    if (person === undefined) throw new Error("a request reached the tools without a person");
    const linkIndex = state.indexFor(person.client);
    return createLinkShortMcpServer({
      client: person.client,
      admin: person.admin,
      callDeadlineMs: commandLine.deadlineSeconds * 1000,
      linkIndex,
      ...(requestStateKey ? { requestStateKey } : {}),
    });
  };
  const server = await startHttpServer(create, options);
  if (signIn.allowLocalClientMetadata)
    say("WARNING: --allow-local-client-metadata fetches client metadata documents over http and from this machine's addresses: for tests only.");
  say(
    `serving ${shown(baseClient.baseUrl)} over Streamable HTTP at ${server.url} for people who sign in as themselves (OAuth, resource ${server.resource}, or their key in ${API_KEY_HEADER}); ` +
      `${commandLine.admin ? "the admin tools for administrators' keys" : "without the admin tools (--admin adds them for administrators' keys)"}; ` +
      state.signInsKeptIn,
  );
  if (trustedProxies !== undefined)
    say(`the bounds on wrong keys count the address X-Forwarded-For names when a request comes from ${trustedProxies.entries.join(", ")} (--trusted-proxy)`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const bounded = new Promise<void>((resolve) => setTimeout(resolve, 3000).unref());
    void Promise.race([Promise.all([server.close(), state.close()]), bounded]).finally(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
