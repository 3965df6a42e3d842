import { done, type Operation } from '../common';
import { idLocator, locatedId } from '../locators';
import { qrInput, qrParameterOf, updateFields } from './fields';

export const update: Operation = {
	properties: [idLocator('qrCode', 'The ID of the QR code to update'), ...updateFields],
	parameterOf: qrParameterOf,
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'qrCode');
		const { message } = await client.qrCodes.update(id, qrInput(this, itemIndex, 'updateFields'));
		return done(id, 'updated', message);
	},
};
