/** Whether `name` is a time zone the host's Intl knows (an IANA name such as "Europe/Berlin", or "UTC"). */
export function isTimeZone(name: unknown): name is string {
  if (typeof name !== "string" || name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
