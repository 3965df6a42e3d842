import type { Link, LinkShortClient, Page, QrCode, RequestOptions } from '@linkshort/client/core';
import type { EventParameters } from '../event';
import type { PageReader } from './pageReader';
import { NO_WAIT } from './tracking';

/** Page sizes of the new-item events: a quiet poll reads one page, so a small one costs the least. */
export const LINK_PAGE = 100;
export const QR_PAGE = 500;

/** Every link, newest first (an order clicks do not change), a page at a time. */
export const linkPages =
	(client: LinkShortClient): PageReader<Link> =>
	async (page, limit) =>
		await client.links.list({ order: 'date', limit, page }, NO_WAIT);

/** Every QR code, newest first, a page at a time. */
export const qrPages =
	(client: LinkShortClient): PageReader<QrCode> =>
	async (page, limit) =>
		await client.qrCodes.list({ limit, page }, NO_WAIT);

/** The most clicked links, one large page. */
export async function mostClicked(client: LinkShortClient, options?: RequestOptions): Promise<Page<Link>> {
	return await client.links.list({ order: 'click', limit: 'large' }, options);
}

/** Whether the event watches `link` (its Link IDs; all links when empty). */
export const watched = (parameters: EventParameters) => (link: { id: number }) => parameters.linkIds.length === 0 || parameters.linkIds.includes(link.id);
