import { Action, Icon } from "@raycast/api";
import type { Account } from "../api/accounts";

/**
 * Install MCP Server: Raycast's own form, filled in to run the LinkShort MCP server
 * (`linkshort-mcp`, from npm) with this account's Service URL and API key as its environment.
 */
export function InstallMcpServerAction({ account }: { account: Account }) {
  return (
    <Action.InstallMCPServer
      title="Install MCP Server"
      icon={Icon.Plug}
      server={{
        name: "LinkShort",
        description: `Short links on ${account.name}, for AI assistants`,
        transport: "stdio",
        command: "npx",
        args: ["-y", "@linkshort/mcp"],
        env: { LINKSHORT_BASE_URL: account.baseUrl, LINKSHORT_API_KEY: account.apiKey },
      }}
    />
  );
}
