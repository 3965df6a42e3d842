/** The server's clock as the new-item events see it: its dates are its local time, which can step back. */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** How far back a server's clock may step (the end of daylight saving time), with a margin. */
export const CLOCK_STEP_MS = HOUR + 5 * MINUTE;
/** How long after the newest item appeared a step back could still hide items created after it. */
export const HIDDEN_WINDOW_MS = 2 * CLOCK_STEP_MS;
/** How often a deep read looks below the top for items a step back hid, while that can happen. */
export const SWEEP_EVERY_MS = HOUR;

export interface Dated {
	id: number;
	date: string | null;
}

export const dateOf = (item: Dated) => item.date ?? '';

/** `date` (`YYYY-MM-DD[ HH:MM:SS]`, the server's local time) moved back by `ms`, in the same format. */
export function dateBefore(date: string, ms: number): string {
	const match = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?/.exec(date);
	if (!match) return '';
	const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
	const moved = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - ms);
	return moved.toISOString().slice(0, 19).replace('T', ' ');
}

export const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a < b ? a : b);
