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

export interface SandboxHooks {
  /** How the file's sandbox starts (default `sandboxForRaycast()`). */
  start?: () => Promise<Sandbox>;
  /** Before each test, the preferences for the sandbox's user with these changes; false leaves them as the last test left them. */
  preferences?: Record<string, unknown> | false;
}

/**
 * The three hooks most of these files share: a sandbox started before the file's (or the
 * describe's) tests and closed after them, and before each test Raycast's mock reset and the
 * preferences set for the sandbox's user. What it returns stands for the sandbox once started
 * (its functions bound to it), so tests and later hooks use it as the sandbox itself.
 */
export function useSandbox({ start = () => sandboxForRaycast(), preferences = {} }: SandboxHooks = {}): Sandbox {
  let started: Sandbox | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(() => started?.close());
  beforeEach(() => {
    mock.reset();
    if (preferences !== false) setPreferences(sandboxOf(), preferences);
  });
  const sandboxOf = (): Sandbox => {
    if (!started) throw new Error("the sandbox is used before its beforeAll started it");
    return started;
  };
  return new Proxy({} as Sandbox, {
    get(_, key) {
      const value: unknown = Reflect.get(sandboxOf(), key);
      return typeof value === "function" ? value.bind(started) : value;
    },
  });
}
