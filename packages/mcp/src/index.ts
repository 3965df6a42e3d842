export { createLinkShortMcpServer, type LinkShortMcpOptions } from "./server";
export { startHttpServer, type HttpServer, type HttpServerOptions } from "./http";
export { clientFromEnvironment, ConfigError, parseCommandLine, type CommandLine } from "./config";
export { ServerLinkIndex, type FreshnessAnswer, type ServerLinkIndexOptions } from "./server-index";
