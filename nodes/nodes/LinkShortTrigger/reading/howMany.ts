import type { IDataObject } from 'n8n-workflow';
import { pollsPerPass } from './scan';

/**
 * How many items (`what`, plural: "links") an account has, as a page read at the pass's size
 * tells: exactly when it is the only page, else between what the pages before the last hold and
 * what full pages would.
 */
export function howMany(page: { items: unknown[]; maxpage: number; perpage: number }, what: string): string {
	const plural = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? what.slice(0, -1) : what}`;
	if (page.maxpage <= 1) return plural(page.items.length);
	return `between ${((page.maxpage - 1) * page.perpage + 1).toLocaleString('en-US')} and ${plural(page.maxpage * page.perpage)}`;
}

/** Says how long a whole-account pass takes when it is more than one poll (for "Fetch Test Event"). */
export function scanNotice(page: { items: unknown[]; maxpage: number; perpage: number }, what: string): IDataObject {
	const polls = pollsPerPass(page.maxpage);
	if (polls <= 1) return {};
	const count = howMany(page, what);
	return {
		scanNotice: `${count[0]!.toUpperCase()}${count.slice(1)}: the trigger reads them in ${page.maxpage} requests over ${polls} checks. Once published it first reads them all as a baseline (nothing emitted), then emits a change within ${polls + 1} checks.`,
	};
}
