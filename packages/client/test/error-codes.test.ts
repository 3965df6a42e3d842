/**
 * Every error of the client carries a stable code and a kind, and the guards read those, not the
 * prototype: an error made by one bundled copy of the client is recognised by another copy.
 */
import * as copyA from "../src/core";
import { API_KEY, scripted } from "./helpers";

let copyB: typeof copyA;
beforeAll(async () => {
  await jest.isolateModulesAsync(async () => {
    copyB = await import("../src/core");
  });
});

type ErrorCase = [copyA.LinkShortError, copyA.LinkShortErrorCode, copyA.ErrorKind];

function everyError(client: typeof copyA): ErrorCase[] {
  return [
    [new client.ValidationError([{ field: "url", message: "must be a valid http or https URL" }], "links.create"), "LINKSHORT_INVALID_INPUT", "input"],
    [
      new client.ValidationError([{ field: "baseUrl", message: "must be a valid http or https URL" }], "LinkShortClient", "settings"),
      "LINKSHORT_INVALID_INPUT",
      "settings",
    ],
    [new client.ApiError("That alias is taken.", 200), "LINKSHORT_API_ERROR", "refused"],
    [new client.AuthenticationError("A valid API key is required.", 401), "LINKSHORT_AUTHENTICATION_FAILED", "settings"],
    [new client.PermissionError("You do not have permission to access this endpoint.", 403), "LINKSHORT_PERMISSION_DENIED", "refused"],
    [new client.NotFoundError("Link does not exist.", 404), "LINKSHORT_NOT_FOUND", "refused"],
    [new client.RateLimitError("Too Many API Requests.", 429, 1_000, undefined), "LINKSHORT_RATE_LIMITED", "transient"],
    [new client.ConnectionError("Could not reach the server (ECONNREFUSED)", false, "ECONNREFUSED"), "LINKSHORT_CONNECTION_FAILED", "transient"],
    [new client.TimeoutError(1_000), "LINKSHORT_TIMEOUT", "transient"],
    [new client.AbortedError(), "LINKSHORT_ABORTED", "cancelled"],
    [new client.ResponseError("The server sent an HTML page instead of JSON (HTTP 502)", 502, "<html>"), "LINKSHORT_UNREADABLE_ANSWER", "transient"],
    [new client.ResponseError("The server sent an HTML page instead of JSON (HTTP 404)", 404, "<html>"), "LINKSHORT_UNREADABLE_ANSWER", "settings"],
    [new client.ResponseTooLargeError(200, 1_000), "LINKSHORT_ANSWER_TOO_LARGE", "settings"],
    [new client.TooManyPagesError(10, 20), "LINKSHORT_TOO_MANY_PAGES", "settings"],
  ];
}

test("two bundled copies of the client have classes of their own: instanceof cannot tell their errors apart", () => {
  expect(new copyA.RateLimitError("slow", 429, undefined, undefined)).not.toBeInstanceOf(copyB.RateLimitError);
  expect(new copyA.RateLimitError("slow", 429, undefined, undefined)).not.toBeInstanceOf(copyB.LinkShortError);
});

test.each(everyError(copyA).map(([error, code, kind]) => [error.name, code, kind, error] as const))(
  "%s (%s, %s) from one copy is recognised by the other's guards, by its code alone",
  (_name, code, kind, error) => {
    expect(error).toMatchObject({ code, kind });
    expect(copyB.isLinkShortError(error)).toBe(true);
    expect(copyB.isLinkShortError(error, code)).toBe(true);
    const other = code === "LINKSHORT_API_ERROR" ? "LINKSHORT_NOT_FOUND" : "LINKSHORT_API_ERROR";
    expect(copyB.isLinkShortError(error, other)).toBe(false);
  },
);

test("every code is given to exactly one class", () => {
  const codes = new Map<string, string>();
  for (const [error, code] of everyError(copyA)) {
    expect(codes.get(code) ?? error.name).toBe(error.name);
    codes.set(code, error.name);
  }
  expect(codes.size).toBe(12);
});

test("what is not the client's error is not taken for one", () => {
  for (const value of [
    undefined,
    null,
    "LINKSHORT_TIMEOUT",
    Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }),
    Object.assign(new Error("made up"), { code: "LINKSHORT_MADE_UP", kind: "transient" }),
    Object.assign(new Error("no kind"), { code: "LINKSHORT_TIMEOUT" }),
    { code: "LINKSHORT_TIMEOUT", kind: "transient" },
  ]) {
    expect(copyA.isLinkShortError(value)).toBe(false);
  }
});

test("a transport that throws another copy's error gets that error's meaning, not a connection failure", async () => {
  const { client } = scripted([new copyB.TimeoutError(250)], { maxRetries: 0 });
  await expect(client.account.get()).rejects.toMatchObject({ code: "LINKSHORT_TIMEOUT", timeoutMs: 250 });
  const refused = scripted(
    [new copyB.ConnectionError("connect ECONNREFUSED", false, "ECONNREFUSED"), { json: { error: 0, id: 7, shorturl: "https://short.example/a" } }],
    { maxRetries: 1 },
  );
  // A create is retried only when it certainly never reached the server, as that error says.
  await expect(refused.client.links.create({ url: "https://example.com/a" })).resolves.toMatchObject({ id: 7 });
  expect(refused.sent).toHaveLength(2);
});

test("the constructor's refusal of the client's own options is a settings failure, a call's bad input an input one", async () => {
  expect(
    () =>
      new copyA.LinkShortClient({
        baseUrl: "ftp://x",
        apiKey: API_KEY,
        transport: async () => ({ status: 200, headers: {}, body: "" }),
        sleep: async () => undefined,
      }),
  ).toThrow(expect.objectContaining({ code: "LINKSHORT_INVALID_INPUT", kind: "settings" }));
  const { client } = scripted([]);
  await expect(client.links.create({ url: "htp://x" })).rejects.toMatchObject({ code: "LINKSHORT_INVALID_INPUT", kind: "input" });
});

describe("stopsBulkRun: when one item's failure ends a run of the same call", () => {
  test.each(everyError(copyA).map(([error]) => [error.name, error.kind, error] as const))("%s (%s)", (_name, kind, error) => {
    const shared = kind === "settings" || kind === "transient" || kind === "cancelled" || error.code === "LINKSHORT_PERMISSION_DENIED";
    expect(copyB.stopsBulkRun(error)).toBe(shared);
  });

  test("an error that is not the client's (a fault of the host) ends the run", () => {
    expect(copyA.stopsBulkRun(new TypeError("Cannot read properties of undefined"))).toBe(true);
  });
});
