import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { type Link, type LinkWithStats, type QrCode, type QrCodeWithStats, type Statistics } from '@linkshort/client/core';
import { readStatistics } from '@linkshort/client/charts';
import { aliasFromShortUrl } from '@linkshort/client/values';

/** Simplify came with version 1.1: nodes made before keep the API's shape. */
export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
	description:
		"Whether to return one flat item (ID, alias, URLs, title, clicks, and top countries and referrers as lists sorted by count) instead of the API's answer",
};

/** Whether the output is simplified: on by default from version 1.1, off (the API's shape) before. */
export function simplified(context: IExecuteFunctions, itemIndex: number): boolean {
	return context.getNodeParameter('simplify', itemIndex, false) as boolean;
}

/**
 * Each top list as `[{name: 'Canada', count: 9}, {name: 'France', count: 8}]`: every entry, in the
 * client's one order (most first, equal counts by name), names as the API sent them.
 */
function statistics(stats: Statistics): IDataObject {
	const { lists } = readStatistics(stats, { top: Infinity });
	const ranked = lists.map((list) => [list.key, list.entries.map(({ name, count }) => ({ name, count }))]);
	return { clicks: stats.clicks, uniqueClicks: stats.uniqueClicks, ...Object.fromEntries(ranked) };
}

/** A link's targeting maps (country or device to URL): not flat, so a simplified link leaves them out. */
const TARGETING_MAPS: ReadonlySet<string> = new Set(['location', 'device']);

/**
 * Every other field of the link's details in their order, the statistics before the dates: a field
 * the client's details gain is here with no line of its own.
 */
export function simpleLink({ details, stats }: LinkWithStats): IDataObject {
	const { id, shorturl, longurl, expiry, date, ...rest } = details;
	const written = Object.fromEntries(Object.entries(rest).filter(([field]) => !TARGETING_MAPS.has(field)));
	return { id, alias: aliasFromShortUrl(shorturl), shorturl, longurl, ...written, ...statistics(stats), expiry, date };
}

export function simpleLinkListItem(link: Link): IDataObject {
	return { id: link.id, alias: link.alias, shorturl: link.shorturl, longurl: link.longurl, title: link.title, clicks: link.clicks, date: link.date };
}

export function simpleQrCode({ details, stats }: QrCodeWithStats): IDataObject {
	return { id: details.id, name: details.name, link: details.link, scans: details.scans, ...statistics(stats), date: details.date };
}

export function simpleQrListItem(qr: QrCode): IDataObject {
	return { id: qr.id, name: qr.name, link: qr.link, scans: qr.scans, date: qr.date };
}
