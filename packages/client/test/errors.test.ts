import {
  AbortedError,
  ApiError,
  AuthenticationError,
  ConnectionError,
  LinkShortError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseError,
  TimeoutError,
} from "../src/core";
import { API_KEY, scripted, type Reply } from "./helpers";

async function failureOf(reply: Reply, call: (c: ReturnType<typeof scripted>["client"]) => Promise<unknown> = (c) => c.account.get()) {
  const { client } = scripted([reply], { maxRetries: 0 });
  const error = await call(client).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LinkShortError);
  expect(String((error as Error).message)).not.toContain(API_KEY);
  expect(JSON.stringify(error)).not.toContain(API_KEY);
  return error as LinkShortError;
}

describe("errors", () => {
  it("error 1 on HTTP 200 is an ApiError with the server's message", async () => {
    const error = await failureOf({ json: { error: 1, message: "That alias is taken. Please choose another one." } });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.constructor).toBe(ApiError);
    expect(error).toMatchObject({
      status: 200,
      envelopeError: 1,
      code: "LINKSHORT_API_ERROR",
      kind: "refused",
      message: "That alias is taken. Please choose another one.",
    });
  });

  it.each(["A valid API key is required to use this service.", "Please activate your account."])("403 %s is an AuthenticationError", async (message) => {
    const error = await failureOf({ status: 403, json: { error: 1, message } });
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 403, message });
  });

  it("401 is an AuthenticationError", async () => {
    expect(await failureOf({ status: 401, json: { error: 1, message: "Unauthorized" } })).toBeInstanceOf(AuthenticationError);
  });

  it.each(["You do not have permission to access this endpoint.", "You do not have the permission to use the API.", "API service is disabled."])(
    "403 %s is a PermissionError",
    async (message) => {
      const error = await failureOf({ status: 403, json: { error: 1, message } });
      expect(error).toBeInstanceOf(PermissionError);
    },
  );

  it("'does not exist' on HTTP 200 is a NotFoundError", async () => {
    const error = await failureOf({ json: { error: 1, message: "Link does not exist." } }, (c) => c.links.get(5));
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it("a limit answer in the body is a RateLimitError with retryAfterMs and resetAt", async () => {
    const error = await failureOf({
      json: { error: 429, message: "Too Many API Requests.", "Retry-After": 42 },
      headers: { "x-ratelimit-limit": "30", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1900000000" },
    });
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 42_000, resetAt: 1_900_000_000_000 });
  });

  it("HTTP 429 with a Retry-After header is a RateLimitError", async () => {
    const error = await failureOf({ status: 429, body: "<html>slow down</html>", headers: { "retry-after": "3" } });
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 3000, status: 429 });
  });

  it.each([
    ["an empty body", { body: "" }, /empty answer/],
    ["an HTML page", { status: 404, body: "<!DOCTYPE html><html><body>404 Not Found</body></html>" }, /HTML page/],
    ["malformed JSON", { body: '{"error":0,"data":' }, /malformed JSON/],
    ["a JSON array", { body: "[1,2]" }, /not a JSON object/],
    ["an envelope without error", { json: { data: {} } }, /no "error" key/],
    ["a shape that fails the schema", { json: { error: 0, data: { id: "x" } } }, /unexpected shape/],
  ])("%s is a ResponseError with status and excerpt", async (_name, reply, message) => {
    const error = await failureOf(reply as Reply);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toMatch(message);
    expect((error as ResponseError).status).toBe((reply as { status?: number }).status ?? 200);
  });

  it("the excerpt is short and never carries the key, even when the server echoes it", async () => {
    const error = (await failureOf({ status: 500, body: `<html>${"x".repeat(500)} Bearer ${API_KEY}</html>` })) as ResponseError;
    expect(error.excerpt.length).toBeLessThanOrEqual(200);
    const echoed = (await failureOf({ json: { error: 1, message: `Key ${API_KEY} is invalid` } })) as ApiError;
    expect(echoed.message).toBe("Key [redacted] is invalid");
  });

  it("a transport failure is a ConnectionError without the key", async () => {
    const error = await failureOf(Object.assign(new Error(`socket hang up (Bearer ${API_KEY})`), { code: "ECONNRESET" }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).mayHaveReachedServer).toBe(true);
  });

  it("a refused connection certainly never reached the server", async () => {
    const error = await failureOf(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
    expect((error as ConnectionError).mayHaveReachedServer).toBe(false);
  });

  it("timeouts and aborts from the transport keep their classes", async () => {
    expect(await failureOf(new TimeoutError(100))).toBeInstanceOf(TimeoutError);
    expect(await failureOf(new AbortedError())).toBeInstanceOf(AbortedError);
  });

  it("an already aborted signal sends nothing", async () => {
    const { client, sent } = scripted([{ json: { error: 0 } }]);
    const controller = new AbortController();
    controller.abort();
    await expect(client.account.get({ signal: controller.signal })).rejects.toBeInstanceOf(AbortedError);
    expect(sent).toHaveLength(0);
  });

  it("a 5xx with a JSON envelope is an ApiError carrying the status", async () => {
    const error = await failureOf({ status: 503, json: { error: 1, message: "Maintenance" } });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503 });
  });
});
