import { LinkShortClient, ValidationError } from "../src/core";

const base = { apiKey: "sk_option_lengths", transport: async () => ({ status: 200, headers: {}, body: "{}" }), sleep: async () => undefined };

function issuesOf(make: () => unknown) {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues;
  }
  throw new Error("no ValidationError");
}

describe("lengths of the client's options", () => {
  // The base URL's trailing slashes are trimmed by a pattern that backtracks over a long run of
  // slashes: its length is checked first (200,000 slashes took seconds).
  it("a base URL past 2048 characters is refused by its length, naming it", () => {
    expect(issuesOf(() => new LinkShortClient({ ...base, baseUrl: `https://short.example${"/".repeat(200_000)}x` }))).toEqual([
      { field: "baseUrl", message: "must be at most 2048 characters" },
    ]);
  });

  it("an API key past 1024 characters is refused by its length, naming it, and not echoed", () => {
    const apiKey = "k".repeat(1025);
    const issues = issuesOf(() => new LinkShortClient({ ...base, baseUrl: "https://short.example", apiKey }));
    expect(issues).toEqual([{ field: "apiKey", message: "must be at most 1024 characters" }]);
  });

  it("ordinary values pass", () => {
    expect(new LinkShortClient({ ...base, baseUrl: `https://short.example/${"a".repeat(2000)}//`, apiKey: "k".repeat(1024) }).baseUrl).toBe(
      `https://short.example/${"a".repeat(2000)}`,
    );
  });
});
