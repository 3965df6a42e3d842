import type { IncomingMessage, ServerResponse } from "node:http";
import type { FaultKind, FaultRule } from "./fault-injector";

/** What a failing server, or a proxy before it, sends instead of the API's JSON: one answer per fault that answers at once. */
const FAULT_ANSWERS: Record<Exclude<FaultKind, "drop" | "delay">, { status: number; headers: Record<string, string>; body: string }> = {
  "5xx": { status: 503, headers: { "Content-Type": "text/html" }, body: "<html><body><h1>503 Service Unavailable</h1></body></html>" },
  html: {
    status: 200,
    headers: { "Content-Type": "text/html" },
    body: "<!DOCTYPE html><html><body><h1>Whoops, looks like something went wrong.</h1></body></html>",
  },
  empty: { status: 200, headers: { "Content-Type": "application/json" }, body: "" },
  malformed: { status: 200, headers: { "Content-Type": "application/json" }, body: '{"error":0,"data":{"result":3,"urls":[{"id":1,' },
  "429": { status: 429, headers: { "Content-Type": "text/html", "Retry-After": "1" }, body: "<html><body>429 Too Many Requests</body></html>" },
};

/**
 * Answers a request as the fault says: a dropped connection, a delay before the real answer
 * (`answer`), or one of the failing answers above, with the rate headers of the request.
 */
export async function applyFault(
  rule: FaultRule,
  request: IncomingMessage,
  response: ServerResponse,
  rateHeaders: Record<string, string>,
  answer: () => void,
): Promise<void> {
  if (rule.kind === "drop") {
    request.socket.destroy();
    return;
  }
  if (rule.kind === "delay") {
    await new Promise((resolve) => setTimeout(resolve, rule.delayMs ?? 5000).unref());
    if (!response.destroyed) answer();
    return;
  }
  const failing = FAULT_ANSWERS[rule.kind];
  const status = rule.kind === "5xx" ? (rule.status ?? failing.status) : failing.status;
  response.writeHead(status, { ...failing.headers, ...rateHeaders });
  response.end(failing.body);
}
