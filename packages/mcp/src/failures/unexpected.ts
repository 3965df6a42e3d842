/**
 * A failure outside any request (an exception or a rejection nobody caught) is logged and never
 * allowed to stop the server; its message goes through `redact` whole (a key or token in it is
 * removed before the message is cut, so no piece of one is left).
 */
export function logUnexpectedFailures(say: (text: string) => void, redact: (text: string) => string): void {
  const report = (reason: unknown) => say(`unexpected error: ${redact(reason instanceof Error ? reason.message : String(reason)).slice(0, 500)}`);
  process.on("uncaughtException", report);
  process.on("unhandledRejection", report);
}
