import type { IExecuteFunctions, INodeParameterResourceLocator, INodeProperties } from 'n8n-workflow';
import type { LinkShortClient } from '@linkshort/client/core';
import { comparableAddress, lastSegment } from './addresses';

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

async function linkIdByShortUrl(client: LinkShortClient, address: string): Promise<number> {
	const wanted = comparableAddress(address);
	const alias = address.trim();
	for await (const link of client.links.list({ limit: 100 })) {
		if (comparableAddress(link.shorturl) === wanted || link.alias === alias) return link.id;
	}
	throw new Error(`No link has the short URL or alias "${address.trim()}"`);
}

async function qrIdByUrl(client: LinkShortClient, address: string): Promise<number> {
	const wanted = comparableAddress(address);
	const code = lastSegment(address.trim());
	for await (const qr of client.qrCodes.list({ limit: 100 })) {
		if (comparableAddress(qr.link) === wanted || qr.link.endsWith(`/qr/${code}`)) return qr.id;
	}
	throw new Error(`No QR code has the URL "${address.trim()}"`);
}

/**
 * The ID a locator parameter names. Workflows saved before the locators stored a plain number,
 * which still works; a wrong ID is left to the client, which names the field.
 */
export async function locatedId(context: IExecuteFunctions, client: LinkShortClient, itemIndex: number, kind: LocatorKindName, name = 'id'): Promise<number> {
	const raw = context.getNodeParameter(name, itemIndex) as INodeParameterResourceLocator | number | string;
	if (typeof raw !== 'object' || raw === null) return asId(raw);
	if (raw.mode === 'url' && kind === 'link') return await linkIdByShortUrl(client, String(raw.value ?? ''));
	if (raw.mode === 'url' && kind === 'qrCode') return await qrIdByUrl(client, String(raw.value ?? ''));
	return asId(raw.value);
}
