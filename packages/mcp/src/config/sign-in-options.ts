/** The settings of --sign-in that the environment may give beside the flags (the flag wins). */
import { TrustedProxies } from "../auth/client-address";
import {
  ConfigError,
  PUBLIC_URL_VARIABLE,
  publicUrl,
  secretFrom,
  SIGN_IN_SECRET_VARIABLE,
  TRUSTED_PROXY_VARIABLE,
  trustedProxyList,
  type SignInCommandLine,
} from "./command-line";

/** The public address for --sign-in: the flag, else the environment's; undefined lets the server use its own address. */
export function publicUrlFrom(env: NodeJS.ProcessEnv, signIn: SignInCommandLine): string | undefined {
  if (signIn.publicUrl !== undefined) return signIn.publicUrl;
  const fromEnv = env[PUBLIC_URL_VARIABLE];
  return fromEnv === undefined || fromEnv === "" ? undefined : publicUrl(fromEnv, PUBLIC_URL_VARIABLE);
}

/** The sign-in secret from the environment (hex or base64, at least 32 bytes); undefined when unset. */
export function signInSecretFrom(env: NodeJS.ProcessEnv): Uint8Array | undefined {
  return secretFrom(env, SIGN_IN_SECRET_VARIABLE);
}

/** The proxies in front: --trusted-proxy, else the environment's; undefined (the socket's peer is the client) when neither names one. */
export function trustedProxiesFrom(env: NodeJS.ProcessEnv, signIn: SignInCommandLine): TrustedProxies | undefined {
  const fromEnv = env[TRUSTED_PROXY_VARIABLE];
  const entries = signIn.trustedProxies ?? (fromEnv === undefined || fromEnv === "" ? [] : trustedProxyList(fromEnv, TRUSTED_PROXY_VARIABLE));
  if (entries.length === 0) return undefined;
  try {
    return new TrustedProxies(entries);
  } catch (error) {
    throw new ConfigError(String(error));
  }
}
