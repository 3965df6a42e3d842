/** Checks of the states kept in static data, which can hold anything (edited by hand, kept by another version). */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
export const isIdList = (value: unknown): value is number[] => Array.isArray(value) && value.every(isId);
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;
export const isCountMap = (value: unknown): value is Record<string, number> => isRecord(value) && Object.values(value).every(isCount);
export const isDateOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';
export const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
/** The latest moment a JavaScript Date holds (epoch milliseconds). */
const LAST_MOMENT = 8.64e15;
/** A moment the events compute with: whole epoch milliseconds a Date can hold, not before 1970. */
export const isMoment = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= LAST_MOMENT;
