import type { IncomingMessage, ServerResponse } from "node:http";
import type { FaultRule } from "./faults";

/**
 * Answers a request as the fault says, in the way deployed servers and the networks before them
 * fail: a dropped connection, an HTML error page, an empty or cut-off body, a 429 page. `answer`
 * sends the real answer, for a delay.
 */
export async function applyFault(rule: FaultRule, request: IncomingMessage, response: ServerResponse, rateHeaders: Record<string, string>, answer: () => void): Promise<void> {
  switch (rule.kind) {
    case "drop":
      request.socket.destroy();
      return;
    case "delay":
      await new Promise((resolve) => setTimeout(resolve, rule.delayMs ?? 5000).unref());
      if (!response.destroyed) answer();
      return;
    case "5xx":
      response.writeHead(rule.status ?? 503, { "Content-Type": "text/html", ...rateHeaders });
      response.end("<html><body><h1>503 Service Unavailable</h1></body></html>");
      return;
    case "html":
      response.writeHead(200, { "Content-Type": "text/html", ...rateHeaders });
      response.end("<!DOCTYPE html><html><body><h1>Whoops, looks like something went wrong.</h1></body></html>");
      return;
    case "empty":
      response.writeHead(200, { "Content-Type": "application/json", ...rateHeaders });
      response.end();
      return;
    case "malformed":
      response.writeHead(200, { "Content-Type": "application/json", ...rateHeaders });
      response.end('{"error":0,"data":{"result":3,"urls":[{"id":1,');
      return;
    case "429":
      response.writeHead(429, { "Content-Type": "text/html", "Retry-After": "1", ...rateHeaders });
      response.end("<html><body>429 Too Many Requests</body></html>");
      return;
  }
}
