// The baseline of bench row 22: a minimal stdio MCP server on the v1 SDK (@modelcontextprotocol/sdk,
// a dev dependency of packages/mcp) that answers the same first call as the real server, get_account,
// through the same client (@linkshort/client's build). Only what that answer needs, nothing else.
'use strict';
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { LinkShortClient } = require('@linkshort/client');

const client = new LinkShortClient({ baseUrl: process.env.LINKSHORT_BASE_URL, apiKey: process.env.LINKSHORT_API_KEY });
const server = new McpServer({ name: 'v1-minimal', version: '1.0.0' });
server.registerTool(
  'get_account',
  { title: 'Get the account', description: 'Returns the account this server acts as', annotations: { readOnlyHint: true } },
  async () => {
    const account = await client.account.get();
    return { content: [{ type: 'text', text: JSON.stringify(account) }], structuredContent: account };
  },
);
void server.connect(new StdioServerTransport());
