import type { IncomingMessage, ServerResponse } from "node:http";
import { notFoundPage } from "../pages/html";
import { Failure } from "../routes/shared";
import type { Sandbox } from "../sandbox";
import { errorText } from "../values";
import { bearerKey, parseObject, readBody, sendJson } from "./http-io";

const CONTROL_MAX_BODY = 64 * 1024;

/** `/__sandbox/*`: fault injection and mode, for the admin key and JSON only, so that no web page can post to it. */
export async function handleControl(sandbox: Sandbox, request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
  const { store, faults } = sandbox;
  const method = request.method;
  const known = (path === "/__sandbox/faults" && (method === "POST" || method === "DELETE")) || (path === "/__sandbox/mode" && method === "POST");
  if (!known) return notFoundPage(response);
  const raw = await readBody(request, CONTROL_MAX_BODY);
  const reply = (status: number, body: Record<string, unknown>) => sendJson(response, status, body, "document");
  if (!store.userByKey(bearerKey(String(request.headers.authorization ?? "")) ?? "")?.admin) {
    return reply(403, { error: 1, message: "The admin API key is required (Authorization: Bearer <admin key>)." });
  }
  if (raw === undefined) return reply(413, { error: 1, message: "The request body is too large." });
  const type = String(request.headers["content-type"] ?? "")
    .split(";")[0]!
    .trim()
    .toLowerCase();
  if (method === "POST" && type !== "application/json") return reply(415, { error: 1, message: "Content-Type must be application/json." });
  try {
    const body = parseObject(raw, "The body");
    if (path === "/__sandbox/mode") {
      if (body.mode !== "deployed" && body.mode !== "document") throw new Failure('mode must be "deployed" or "document"');
      sandbox.mode = body.mode;
    } else if (method === "DELETE") faults.clear();
    else if (!Array.isArray(body.rules)) throw new Failure("rules must be an array of fault rules");
    else faults.set(body.rules);
    reply(200, { error: 0, mode: sandbox.mode, injected: faults.injected });
  } catch (error) {
    reply(400, { error: 1, message: errorText(error) });
  }
}
