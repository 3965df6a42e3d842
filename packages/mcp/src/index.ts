export { createLinkShortMcpServer, startHttpServer, type HttpServer, type HttpServerOptions, type LinkShortMcpOptions } from "./server";
export { clientFromEnvironment, ConfigError, parseCommandLine, type CommandLine } from "./config";
export { ServerLinkIndex, type FreshnessAnswer, type ServerLinkIndexOptions } from "./server-index";
