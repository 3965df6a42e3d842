import type { Operation } from '../common';
import { idLocator, locatedId } from '../locators';

export const get: Operation = {
	properties: [idLocator('qrCode', 'The ID of the QR code')],
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'qrCode');
		return await client.qrCodes.get(id);
	},
};
