export { createLinkShortMcpServer, type LinkShortMcpOptions } from "./server/server";
export { startHttpServer, type HttpServer, type HttpServerOptions } from "./server/http";
export { clientFromEnvironment, ConfigError, parseCommandLine, type CommandLine } from "./config/command-line";
export { ServerLinkIndex, type FreshnessAnswer, type ServerLinkIndexOptions } from "./account/server-index";
