import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { LinkDetails } from '@linkshort/client/core';
import { aliasFromShortUrl } from '@linkshort/client/values';
import type { Operation } from '../operation';

/**
 * From this version Create and Update answer with the link as the service now holds it, each field
 * named as Get names it (`title`, `description`, `location`, `device`); nodes saved before keep
 * the names of what was sent (`metatitle`, `metadescription`, `geotarget`, `devicetarget`).
 */
export const HELD_LINK_VERSION = 1.2;

const namesAsGet = (context: IExecuteFunctions) => context.getNode().typeVersion >= HELD_LINK_VERSION;

type Targets = Array<Record<string, string>> | undefined;

/** A target list as the link's details show it: `{canada: 'https://example.ca'}` (the service lower-cases the names). */
function targetMap(targets: Targets, key: 'location' | 'device'): Record<string, string> {
	return Object.fromEntries((targets ?? []).map((target) => [String(target[key]).trim().toLowerCase(), String(target.link)]));
}

/**
 * A created link as the service holds it, from what was sent (the service keeps a create's fields
 * as sent, and hands back an existing link only when every one matches), with no request: what
 * the details never show (domain, redirect type, parameters, a password) stays as sent.
 */
function createdAsHeld(sent: IDataObject): IDataObject {
	const { id, shorturl, alias, longurl, metatitle, metadescription, geotarget, devicetarget, expiry, ...rest } = sent;
	return {
		id,
		alias,
		shorturl,
		longurl,
		title: metatitle ?? '',
		description: metadescription ?? '',
		location: targetMap(geotarget as Targets, 'location'),
		device: targetMap(devicetarget as Targets, 'device'),
		expiry: expiry ?? null,
		...rest,
	};
}

/** An updated link as the service now holds it: its details read after the update (one request), with what only the update says. */
function updatedAsHeld(sent: IDataObject, details: LinkDetails): IDataObject {
	const { shorturl, longurl, title, description, location, device, expiry, date } = details;
	const { domain, type, parameters, utm, passwordProtected } = sent;
	const hidden = Object.entries({ domain, type, parameters, utm, passwordProtected }).filter(([, value]) => value !== undefined);
	return {
		id: details.id,
		alias: aliasFromShortUrl(shorturl),
		shorturl,
		longurl,
		title,
		description,
		location,
		device,
		expiry,
		date,
		...Object.fromEntries(hidden),
	};
}

/** Create with its output, from version 1.2, named as Get names a link. */
export function createAnsweringAsGet(create: Operation): Operation {
	return {
		...create,
		async execute(client, itemIndex) {
			const output = (await create.execute.call(this, client, itemIndex)) as IDataObject;
			return namesAsGet(this) ? createdAsHeld(output) : output;
		},
	};
}

/** Update with its output, from version 1.2, the link as the service now holds it, named as Get names it. */
export function updateAnsweringAsGet(update: Operation): Operation {
	return {
		...update,
		async execute(client, itemIndex) {
			const output = (await update.execute.call(this, client, itemIndex)) as IDataObject;
			if (!namesAsGet(this)) return output;
			const { details } = await client.links.get(output.id as number);
			return updatedAsHeld(output, details);
		},
	};
}
