import type { Link, LinkShortClient } from '@linkshort/client/core';
import type { EventParameters } from './event';

/** Page sizes: large, so that a quiet account costs one request per poll. */
export const LINK_PAGE = 100;
export const QR_PAGE = 500;

/** Reads most-clicked-first pages until a page ends below the threshold. */
export async function readAtOrAbove(client: LinkShortClient, threshold: number): Promise<Link[]> {
	const found = new Map<number, Link>();
	for await (const page of client.links.list({ order: 'click', limit: LINK_PAGE }).pages()) {
		for (const link of page.items) if (link.clicks >= threshold && !found.has(link.id)) found.set(link.id, link);
		const last = page.items[page.items.length - 1];
		if (last !== undefined && last.clicks < threshold) break;
	}
	return [...found.values()];
}

/** Whether the event watches `link` (its Link IDs; all links when empty). */
export const watched = (parameters: EventParameters) => (link: { id: number }) => parameters.linkIds.length === 0 || parameters.linkIds.includes(link.id);
