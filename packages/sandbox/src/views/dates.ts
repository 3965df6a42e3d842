/** Dates as the API writes them ("2026-01-31 23:59:59", UTC) and reads them (a date alone is midnight). */

export function timestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

export function parseTimestamp(value: string): number {
  return Date.parse(`${value.length === 10 ? `${value} 00:00:00` : value}Z`.replace(" ", "T"));
}
