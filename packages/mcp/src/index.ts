export { createLinkShortMcpServer, DEFAULT_CALL_DEADLINE_MS, startHttpServer, type HttpServer, type HttpServerOptions, type LinkShortMcpOptions } from "./server";
export { API_KEY_VARIABLE, BASE_URL_VARIABLE, clientFromEnvironment, ConfigError, parseCommandLine, type CommandLine } from "./config";
export { describeFailure } from "./failures";
export { FIND_SCAN_LIMIT } from "./tools";
