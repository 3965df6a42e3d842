/** The extension's tests signed in: a sandbox, and Raycast's preferences naming its user's account. */
import { startSandbox, type Sandbox, type SandboxOptions } from "@linkshort/sandbox";
import { mock } from "./raycast-api-mock";

/**
 * Raycast's preferences for one account at `service` (its Service URL and the user's API key),
 * Copy as the primary action and no Default Domain, with `changes` over them.
 */
export function setPreferences(service: { baseUrl: string; userKey: string }, changes: Record<string, unknown> = {}): void {
  mock.preferences = { baseUrl: service.baseUrl, apiKey: service.userKey, primaryAction: "copy", defaultDomain: "", ...changes };
}

/** A sandbox (`options`; by default a rate limit no test reaches) with the preferences set for its user. */
export async function sandboxForRaycast(options: SandboxOptions = { rateLimit: { limit: 100_000, windowMs: 60_000 } }): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  setPreferences(sandbox);
  return sandbox;
}
