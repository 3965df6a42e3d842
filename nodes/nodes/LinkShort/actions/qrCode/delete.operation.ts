import { done } from '../outputs';
import type { Operation } from '../operation';
import { idLocator, locatedId } from '../locators';

export const deleteQrCode: Operation = {
	properties: [idLocator('qrCode', 'The ID of the QR code to delete')],
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'qrCode');
		const { message } = await client.qrCodes.delete(id);
		return done(id, 'deleted', message);
	},
};
