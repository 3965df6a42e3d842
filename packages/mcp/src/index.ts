export { createLinkShortMcpServer, DEFAULT_CALL_DEADLINE_MS, startHttpServer, type HttpServer, type HttpServerOptions, type LinkShortMcpOptions } from "./server";
export { API_KEY_VARIABLE, BASE_URL_VARIABLE, clientFromEnvironment, ConfigError, parseCommandLine, type CommandLine } from "./config";
export { describeFailure } from "./failures";
export { BULK_GRACE_MS, BULK_MAX_URLS } from "./tools/shorten-links";
export { ServerLinkIndex, type FreshnessAnswer, type ServerLinkIndexOptions } from "./link-index";
