/**
 * `timestampIso`: the API's zone-less `YYYY-MM-DD HH:MM:SS` as ISO 8601 with the offset a zone has
 * at that moment, on both sides of clock changes, checked against the zone rules of Intl itself.
 */
import { timestampIso } from "../src/values";

describe("timestampIso", () => {
  it("writes the zone's offset at that date: winter and summer, east and west, half hours", () => {
    expect(timestampIso("2026-11-16 02:35:10", "Europe/Berlin")).toBe("2026-11-16T02:35:10+01:00");
    expect(timestampIso("2026-07-16 02:35:10", "Europe/Berlin")).toBe("2026-07-16T02:35:10+02:00");
    expect(timestampIso("2026-07-16 02:35:10", "America/New_York")).toBe("2026-07-16T02:35:10-04:00");
    expect(timestampIso("2026-01-05 23:59:59", "Asia/Kolkata")).toBe("2026-01-05T23:59:59+05:30");
    expect(timestampIso("2026-01-05 00:00:00")).toBe("2026-01-05T00:00:00+00:00");
  });

  it("around clock changes: the hour before and after, the repeated hour, and a time the clock skipped", () => {
    // Berlin: 2026-03-29 02:00 became 03:00; 2026-10-25 03:00 became 02:00.
    expect(timestampIso("2026-03-29 01:59:59", "Europe/Berlin")).toBe("2026-03-29T01:59:59+01:00");
    expect(timestampIso("2026-03-29 03:00:00", "Europe/Berlin")).toBe("2026-03-29T03:00:00+02:00");
    expect(timestampIso("2026-03-29 02:30:00", "Europe/Berlin")).toMatch(/^2026-03-29T02:30:00\+0[12]:00$/);
    expect(timestampIso("2026-10-25 02:30:00", "Europe/Berlin")).toMatch(/^2026-10-25T02:30:00\+0[12]:00$/);
    expect(timestampIso("2026-10-25 03:00:00", "Europe/Berlin")).toBe("2026-10-25T03:00:00+01:00");
  });

  it("the moment it names is the wall-clock time in that zone", () => {
    for (const [text, zone] of [
      ["2026-11-16 02:35:10", "Australia/Lord_Howe"],
      ["2026-06-01 12:00:00", "America/St_Johns"],
      ["2026-12-31 23:00:00", "Pacific/Kiritimati"],
    ] as const) {
      const iso = timestampIso(text, zone)!;
      const wall = new Intl.DateTimeFormat("sv-SE", {
        timeZone: zone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        hourCycle: "h23",
      }).format(new Date(iso));
      expect(wall).toBe(text);
    }
  });

  it("a date alone stays a date; anything else is null", () => {
    expect(timestampIso("2026-11-16", "Europe/Berlin")).toBe("2026-11-16");
    expect(timestampIso("2026-02-30 10:00:00", "UTC")).toBeNull();
    expect(timestampIso("16/11/2026 10:00", "UTC")).toBeNull();
    expect(timestampIso("", "UTC")).toBeNull();
  });
});
