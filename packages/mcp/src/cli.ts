#!/usr/bin/env node
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { clientFromEnvironment, ConfigError, parseCommandLine, USAGE } from "./config";
import { createLinkShortMcpServer, startHttpServer } from "./server";

// stdout carries the protocol over stdio: everything for people goes to stderr.
const say = (text: string) => process.stderr.write(`linkshort-mcp: ${text}\n`);

async function main(): Promise<void> {
  const commandLine = parseCommandLine(process.argv.slice(2));
  if (commandLine.help) {
    process.stdout.write(USAGE);
    return;
  }
  const client = clientFromEnvironment(process.env, commandLine.maxWaitSeconds);
  // A failure outside a tool call is logged, never allowed to stop the server.
  process.on("uncaughtException", (error) => say(client.redact(`unexpected error: ${error.message}`)));
  process.on("unhandledRejection", (reason) => say(client.redact(`unexpected error: ${reason instanceof Error ? reason.message : String(reason)}`)));

  const create = () => createLinkShortMcpServer({ client, admin: commandLine.admin });
  const tools = commandLine.admin ? "with the admin tools" : "without the admin tools (--admin adds them)";
  if (commandLine.http) {
    const server = await startHttpServer(create, commandLine.http);
    say(`serving ${client.baseUrl} over Streamable HTTP at ${server.url} ${tools}`);
    const stop = () => void server.close().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  } else {
    await create().connect(new StdioServerTransport());
    say(`serving ${client.baseUrl} over stdio ${tools}`);
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    say(error.message);
    process.stderr.write(`\n${USAGE}`);
  } else {
    say(`could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exitCode = 1;
});
