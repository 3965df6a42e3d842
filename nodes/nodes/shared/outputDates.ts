import type { IDataObject } from 'n8n-workflow';
import { timestampIso } from '@linkshort/client/values';

/** The fields of the API's answers (and of what an operation sent, echoed) that hold a date and time. */
const DATE_FIELDS = new Set(['date', 'expiry', 'expires', 'expiration', 'registered']);

/**
 * An output item with, beside each date the server wrote (`"date": "2026-11-16 02:35:10"`, left as
 * it is for the workflows that read it), the same date in ISO 8601 with its offset (`dateIso`).
 * The API's dates carry no zone: they are read in the workflow's time zone, the zone Expiry is
 * written in, so that a date sent and read back is the same moment.
 */
export function withDateOffsets<T>(value: T, timeZone: string): T {
	if (Array.isArray(value)) return value.map((item) => withDateOffsets(item, timeZone)) as T;
	if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
	const result: IDataObject = {};
	for (const [key, field] of Object.entries(value as IDataObject)) {
		result[key] = withDateOffsets(field, timeZone);
		if (!DATE_FIELDS.has(key) || typeof field !== 'string') continue;
		const iso = timestampIso(field, timeZone);
		if (iso !== null) result[`${key}Iso`] = iso;
	}
	return result as T;
}
