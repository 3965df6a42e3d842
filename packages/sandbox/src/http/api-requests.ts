import type { IncomingMessage, ServerResponse } from "node:http";
import { applyFault } from "../faults/apply-fault";
import { notFoundPage } from "../pages/html";
import { SaveError } from "../persistence/store";
import { findRoute } from "../routes";
import { Failure, type ApiBody } from "../routes/shared";
import type { Sandbox } from "../sandbox";
import { errorText } from "../values";
import { bearerKey, parseObject, readBody, sendJson } from "./http-io";
import type { RateWindows } from "./rate-windows";
import type { RequestLog } from "../request-log";

/** What serving `/api/*` needs beside the request: the sandbox it answers for and the server's own bookkeeping. */
export interface ApiServer {
  sandbox: Sandbox;
  windows: RateWindows;
  log: RequestLog;
  maxBodyBytes: number;
  now: () => number;
}

/** One `/api/*` request: logged, rate limited, faults applied before and after, then carried out by its route. */
export async function handleApiRequest(server: ApiServer, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  const { sandbox, windows, log, now } = server;
  const method = request.method ?? "GET";
  const path = url.pathname;
  log.add(method, path, url.search, now());
  const raw = await readBody(request, server.maxBodyBytes);
  await sandbox.onApiRequest?.({ method, path, query: url.searchParams });
  const current = now();
  const authorization = String(request.headers.authorization ?? "");
  // Counted per Authorization header, before authentication, as deployed servers do.
  const rate = windows.hit(authorization, current);
  const mode = sandbox.mode;
  if (raw === undefined) {
    sendJson(response, 413, { error: 1, message: "The request body is too large." }, mode, { ...rate.headers, Connection: "close" });
    return;
  }
  if (rate.exceeded) {
    sendJson(response, 200, { error: 429, message: "Too Many API Requests.", "Retry-After": rate.retryAfter }, mode, rate.headers);
    return;
  }
  const requestId = typeof request.headers["x-request-id"] === "string" ? request.headers["x-request-id"] : undefined;
  const before = sandbox.faults.pick(method, path, "before", requestId);
  const reply = (status: number, body: ApiBody | undefined) => () => {
    if (body === undefined) notFoundPage(response, status);
    else sendJson(response, status, body, mode, rate.headers);
  };
  if (before && before.kind !== "delay") return applyFault(before, request, response, rate.headers, () => undefined);

  const { status, body } = answer(sandbox, method, path, url, raw, authorization, current);
  const after = sandbox.faults.pick(method, path, "after", requestId);
  const fault = before ?? after;
  if (fault) return applyFault(fault, request, response, rate.headers, reply(status, body));
  reply(status, body)();
}

/** Carries out one API request: the status and JSON body to answer with (body undefined: the HTML 404/405 page). */
function answer(
  sandbox: Sandbox,
  method: string,
  path: string,
  url: URL,
  raw: string,
  authorization: string,
  current: number,
): { status: number; body?: ApiBody } {
  const { store, mode } = sandbox;
  const key = bearerKey(authorization);
  const user = key ? store.userByKey(key) : undefined;
  if (!user) return { status: 403, body: { error: 1, message: "A valid API key is required to use this service." } };
  const { route, params, pathMatched } = findRoute(method, path);
  if (!route) {
    if (mode === "deployed") return { status: pathMatched ? 405 : 404 };
    return { status: 404, body: { error: 1, message: "This endpoint does not exist." } };
  }
  try {
    const body = parseObject(raw, "The request body");
    const result = route.handler({
      store,
      user,
      body,
      query: url.searchParams,
      params,
      mode,
      baseUrl: sandbox.baseUrl,
      now: current,
      maxPageSize: sandbox.maxPageSize,
      oversizedPages: sandbox.oversizedPages,
      dateTies: sandbox.dateTies,
    });
    if (route.writes) store.commit();
    return { status: 200, body: result };
  } catch (error) {
    if (error instanceof Failure) {
      // Whatever the handler changed before it refused is kept, in memory and in the file alike.
      if (route.writes) saveQuietly(sandbox);
      return { status: error.status, body: { error: 1, message: error.message } };
    }
    if (error instanceof SaveError) return { status: 503, body: { error: 1, message: error.message } };
    console.error(error);
    return { status: 500, body: { error: 1, message: "An internal error occurred." } };
  }
}

function saveQuietly(sandbox: Sandbox): void {
  try {
    sandbox.store.commit();
  } catch (error) {
    console.error(errorText(error));
  }
}
