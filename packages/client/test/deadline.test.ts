import { ApiError, TimeoutError, ValidationError } from "../src/core";
import { scripted, type Handler } from "./helpers";

/** A transport that answers only after `answerAfterMs` of the clock, or times out first at the request's own timeout. */
const slow =
  (clockOf: () => { sleep: (ms: number) => Promise<void> }, answerAfterMs: number): Handler =>
  async (request) => {
    await clockOf().sleep(Math.min(answerAfterMs, request.timeoutMs));
    if (answerAfterMs > request.timeoutMs) return new TimeoutError(request.timeoutMs);
    return { json: { error: 0, message: "ok" } };
  };

describe("a call's deadline (RequestOptions.deadline)", () => {
  it("cuts each attempt's timeout to what is left of it and does not retry past it: a late call fails at the deadline, not after 3 attempts of 30 s", async () => {
    const holder: { clock?: { sleep: (ms: number) => Promise<void> } } = {};
    const { client, sent, clock: fake } = scripted(slow(() => holder.clock!, 60_000));
    holder.clock = fake;
    const startedAt = fake.now();
    const error = await client.links.delete(9, { deadline: startedAt + 10_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ deadlinePassed: true, message: "The call's deadline passed before it had an answer" });
    expect(sent.map((request) => request.timeoutMs)).toEqual([10_000]);
    expect(fake.now() - startedAt).toBe(10_000);
  });

  it("retries a failed attempt while its backoff ends before the deadline, and fails with the server's error when it would not", async () => {
    const unavailable = { status: 503, json: { error: 1, message: "Maintenance" } };
    const roomy = scripted([unavailable, { json: { error: 0, message: "ok" } }]);
    // Backoff of the first retry: 375 ms (random 0.5).
    await expect(roomy.client.links.delete(9, { deadline: roomy.clock.now() + 1_000 })).resolves.toEqual({ message: "ok" });
    expect(roomy.sent).toHaveLength(2);
    const tight = scripted([unavailable, unavailable]);
    const error = await tight.client.links.delete(9, { deadline: tight.clock.now() + 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(tight.sent).toHaveLength(1);
  });

  it("a call whose deadline has passed sends nothing; a client's deadline applies to each of its calls", async () => {
    const { client, sent, clock } = scripted([{ json: { error: 0 } }]);
    await expect(client.links.delete(9, { deadline: clock.now() })).rejects.toMatchObject({ name: "TimeoutError", deadlinePassed: true });
    expect(sent).toHaveLength(0);
    const bounded = scripted([{ json: { error: 0 } }], { deadline: Date.UTC(2026, 10, 21, 11, 0, 0) });
    await expect(bounded.client.links.delete(9)).rejects.toMatchObject({ deadlinePassed: true });
    expect(bounded.sent).toHaveLength(0);
  });

  it("a deadline that is not a time is refused before any request, named as the option", async () => {
    const { client, sent } = scripted([{ json: { error: 0 } }]);
    const error = await client.links.delete(9, { deadline: Number.NaN }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([{ field: "options.deadline", message: expect.stringContaining("milliseconds since 1970") }]);
    expect(sent).toHaveLength(0);
  });
});
