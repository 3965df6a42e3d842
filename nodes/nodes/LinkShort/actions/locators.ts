import type { IExecuteFunctions, INodeParameterResourceLocator, INodeProperties } from 'n8n-workflow';
import { freshnessSentence, type LinkShortClient } from '@linkshort/client/core';
import { qrCodeUrlKey } from '@linkshort/client/values';
import { linkIndexFor } from '../../shared/accountIndexes';

interface LocatorKind {
	displayName: string;
	searchListMethod: string;
	/** Placeholder of the "By URL" mode, for records a person holds by their address. */
	byUrl?: string;
}

export const LOCATOR_KINDS = {
	link: { displayName: 'Link', searchListMethod: 'searchLinks', byUrl: 'https://short.example.com/launch' },
	qrCode: { displayName: 'QR Code', searchListMethod: 'searchQrCodes', byUrl: 'https://short.example.com/qr/a1b2c3' },
	domain: { displayName: 'Domain', searchListMethod: 'searchDomains' },
	pixel: { displayName: 'Pixel', searchListMethod: 'searchPixels' },
	user: { displayName: 'User', searchListMethod: 'searchUsers' },
	plan: { displayName: 'Plan', searchListMethod: 'searchPlans' },
} satisfies Record<string, LocatorKind>;

export type LocatorKindName = keyof typeof LOCATOR_KINDS;

/** A record picked from a searchable list, given by ID, or (links and QR codes) by its short URL or alias. */
export function idLocator(kind: LocatorKindName, description: string, name = 'id'): INodeProperties {
	const spec: LocatorKind = LOCATOR_KINDS[kind];
	const locator: INodeProperties = {
		displayName: spec.displayName,
		name,
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description,
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: spec.searchListMethod, searchable: true } },
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: '42',
				validation: [{ type: 'regex', properties: { regex: '^\\s*[0-9]+\\s*$', errorMessage: 'An ID is a whole number, such as 42' } }],
			},
			{ displayName: 'By URL', name: 'url', type: 'string', placeholder: spec.byUrl ?? '', hint: 'The short URL, or just its alias' },
		],
	};
	if (!spec.byUrl) locator.modes = locator.modes?.filter((mode) => mode.name !== 'url');
	return locator;
}

function asId(value: unknown): number {
	if (typeof value === 'number') return value;
	const text = String(value ?? '').trim();
	return /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
}

/** Sweep pages one By URL lookup may read while the account is still being indexed (10,000 links). */
const BY_URL_MAX_SWEEP_PAGES = 100;
/** QR code pages one By URL lookup reads at most (QR codes are not indexed; accounts hold few). */
const BY_URL_MAX_QR_PAGES = 50;

/** Longer text is not an address anyone pasted: a lookup's memo key keeps at most this much of it (the client's address rules cap at the same length). */
const MAX_ADDRESS_LENGTH = 4_096;

/** What each execution's client has already resolved: each distinct address costs one lookup per execution. */
const resolvedAddresses = new WeakMap<LinkShortClient, Map<string, Promise<number>>>();

function oncePerExecution(client: LinkShortClient, kind: string, address: string, resolve: () => Promise<number>): Promise<number> {
	let resolved = resolvedAddresses.get(client);
	if (!resolved) resolvedAddresses.set(client, (resolved = new Map()));
	const key = `${kind}\n${address.slice(0, MAX_ADDRESS_LENGTH).trim().toLowerCase()}`;
	let id = resolved.get(key);
	if (!id) resolved.set(key, (id = resolve()));
	return id;
}

/**
 * A link by its short URL (any scheme or case, with or without query, fragment or trailing slash)
 * or its alias, from the account's link index: no scan when the index is complete. While the first
 * sweep of a large account is under way, a lookup reads at most BY_URL_MAX_SWEEP_PAGES more pages.
 */
async function linkIdByShortUrl(client: LinkShortClient, address: string): Promise<number> {
	const index = linkIndexFor(client);
	const find = () => index.findByShortUrl(address) ?? index.findByAlias(address);
	await index.sync(client, { maxSweepPages: 1 });
	let found = find();
	for (let read = 1; !found && !index.freshness().complete && read < BY_URL_MAX_SWEEP_PAGES; read += 10) {
		await index.sync(client, { maxSweepPages: 10, wait: true });
		found = find();
	}
	if (!found && index.freshness().complete) {
		// Made a moment ago, elsewhere: the newest links once more.
		await index.sync(client, { force: true, maxSweepPages: 0 });
		found = find();
	}
	if (found) return found.id;
	const freshness = index.freshness();
	const shown = address.slice(0, 200).trim();
	if (freshness.complete) throw new Error(`No link has the short URL or alias "${shown}"`);
	throw new Error(
		`No link with the short URL or alias "${shown}" among the links read so far (${freshnessSentence(freshness)}): this account is still being indexed, a page at a time within its rate limit. Run again later, or pick the link by ID`,
	);
}

async function qrIdByUrl(client: LinkShortClient, address: string): Promise<number> {
	const wanted = qrCodeUrlKey(address);
	const shown = address.slice(0, 200).trim();
	if (wanted === undefined) throw new Error(`"${shown}" is not a QR code's URL`);
	// Just the code (no host, no path): compared with the last segment of each QR code's URL.
	const matches = wanted.includes('/') ? (key: string | undefined) => key === wanted : (key: string | undefined) => key?.endsWith(`/qr/${wanted}`) === true;
	let pages = 0;
	for await (const page of client.qrCodes.list({ limit: 100 }).pages()) {
		const found = page.items.find((qr) => matches(qrCodeUrlKey(qr.link)));
		if (found) return found.id;
		pages += 1;
		if (pages >= BY_URL_MAX_QR_PAGES) throw new Error(`No QR code has the URL "${shown}" among the newest ${pages * 100}; pick it by ID`);
	}
	throw new Error(`No QR code has the URL "${shown}"`);
}

/**
 * The ID a locator parameter names. Workflows saved before the locators stored a plain number,
 * which still works; a wrong ID is left to the client, which names the field.
 */
export async function locatedId(context: IExecuteFunctions, client: LinkShortClient, itemIndex: number, kind: LocatorKindName, name = 'id'): Promise<number> {
	const raw = context.getNodeParameter(name, itemIndex) as INodeParameterResourceLocator | number | string;
	if (typeof raw !== 'object' || raw === null) return asId(raw);
	const address = String(raw.value ?? '');
	if (raw.mode === 'url' && kind === 'link') return await oncePerExecution(client, kind, address, () => linkIdByShortUrl(client, address));
	if (raw.mode === 'url' && kind === 'qrCode') return await oncePerExecution(client, kind, address, () => qrIdByUrl(client, address));
	return asId(raw.value);
}
