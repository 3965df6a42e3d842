import { DateTime } from 'luxon';

const API_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/**
 * The API's `YYYY-MM-DD HH:MM:SS` in the workflow's time zone from what n8n users pass: n8n's date
 * picker and ISO strings (a value without an offset is already wall-clock time in that zone; one
 * with an offset is converted), n8n DateTime values and JavaScript dates from expressions, and the
 * API's own format. Anything else is passed on as text for the client to reject, naming the field.
 */
export function toApiTimestamp(value: unknown, timeZone: string): string {
	let parsed: DateTime | undefined;
	if (DateTime.isDateTime(value)) parsed = value;
	else if (value instanceof Date) parsed = DateTime.fromJSDate(value);
	else if (typeof value === 'string') {
		const text = value.trim();
		const apiFormat = DateTime.fromFormat(text, API_FORMAT, { zone: timeZone });
		parsed = apiFormat.isValid ? apiFormat : DateTime.fromISO(text, { zone: timeZone, setZone: false });
	}
	if (!parsed?.isValid) return String(value).trim();
	return parsed.setZone(timeZone).toFormat(API_FORMAT);
}
