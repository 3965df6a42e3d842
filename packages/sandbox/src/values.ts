/** Checks of values of unknown shape (parsed JSON, caught errors), shared by the sandbox's readers. */

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** What a caught error says, whatever was thrown. */
export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
