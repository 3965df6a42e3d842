import type { IDataObject } from 'n8n-workflow';
import { type LinkCreateInput, type QrCodeCreateInput } from '@linkshort/client/core';
import { aliasFromShortUrl } from '@linkshort/client/values';

/**
 * A created or updated link as the next node needs it, without another request: the server's
 * answer (id, short URL) with what was sent. A link password is not repeated, only that there is one.
 */
export function linkOutput(answer: { id: number; shorturl: string }, input: LinkCreateInput): IDataObject {
	const { url, password, ...sent } = input;
	delete sent.custom; // the alias says it
	return {
		id: answer.id,
		shorturl: answer.shorturl,
		alias: aliasFromShortUrl(answer.shorturl),
		longurl: url,
		...sent,
		...(password ? { passwordProtected: true } : {}),
	};
}

/** A created or updated QR code: the server's answer with the type, data and colours sent. */
export function qrOutput(answer: IDataObject, input: QrCodeCreateInput): IDataObject {
	return { ...answer, ...input };
}

/** An operation's output for a delete or an update that answers only a message. */
export function done(id: number, key: 'deleted' | 'updated', message: string): IDataObject {
	return { id, [key]: true, message };
}
