/** Whether an API key may use the admin tools: one rule for the single-key server and for each signed-in person. */
import { isLinkShortError, type LinkShortClient } from "@linkshort/client";

/**
 * Asked once per key (one request: the plans list). When the service cannot tell, the tools stay,
 * and their calls say what the service answers.
 */
export async function keyIsAdministrators(client: LinkShortClient, say: (text: string) => void): Promise<boolean> {
  try {
    await client.plans.list({ signal: AbortSignal.timeout(10_000), maxRetries: 0 });
    return true;
  } catch (error) {
    if (isLinkShortError(error, "LINKSHORT_PERMISSION_DENIED", "LINKSHORT_AUTHENTICATION_FAILED")) {
      say("--admin: the API key is not an administrator's (the server refused to list plans), so the admin tools are not offered.");
      return false;
    }
    say(
      `--admin: could not check the API key's role (${error instanceof Error ? client.redact(error.message).slice(0, 300) : "unknown error"}); the admin tools are offered.`,
    );
    return true;
  }
}
