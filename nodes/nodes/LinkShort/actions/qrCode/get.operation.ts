import { aliasFromShortUrl } from '@linkshort/client/values';
import type { Operation } from '../operation';
import { chartField, chartFields, withChart } from '../chart';
import { idLocator, locatedId } from '../locators';
import { simpleQrCode, simplified, simplifyField } from '../simplify';

export const get: Operation = {
	properties: [idLocator('qrCode', 'The QR code'), simplifyField, ...chartFields('scans')],
	async execute(client, itemIndex) {
		const simple = simplified(this, itemIndex);
		const field = chartField(this, itemIndex);
		const id = await locatedId(this, client, itemIndex, 'qrCode');
		const qr = await client.qrCodes.get(id);
		return await withChart(this, field, simple ? simpleQrCode(qr) : qr, {
			stats: qr.stats,
			title: qr.details.name || qr.details.link.replace(/^https?:\/\//, ''),
			fileBase: aliasFromShortUrl(qr.details.link) || qr.details.name || `qr-${id}`,
			unit: 'scans',
		});
	},
};
