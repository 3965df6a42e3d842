import type { Operation } from '../operation';
import { idLocator, locatedId } from '../locators';
import { simpleQrCode, simplified, simplifyField } from '../simplify';

export const get: Operation = {
	properties: [idLocator('qrCode', 'The QR code'), simplifyField],
	async execute(client, itemIndex) {
		const simple = simplified(this, itemIndex);
		const id = await locatedId(this, client, itemIndex, 'qrCode');
		const qr = await client.qrCodes.get(id);
		return simple ? simpleQrCode(qr) : qr;
	},
};
