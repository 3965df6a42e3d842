/** A request the authorization server refuses: the MCP SDK's `OAuthError`, with the HTTP status its answer carries. */
import { OAuthError as SdkOAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";

export { OAuthErrorCode };

export class OAuthError extends SdkOAuthError {
  constructor(
    code: OAuthErrorCode | string,
    description: string,
    readonly status = 400,
  ) {
    super(code, description);
  }
}
