import type { Operation } from '../operation';
import { idLocator, locatedId } from '../locators';
import { done, qrOutput } from '../outputs';
import { qrInput, qrParameterOf, updateFields } from './fields';

export const update: Operation = {
	properties: [idLocator('qrCode', 'The ID of the QR code to update'), ...updateFields],
	parameterOf: qrParameterOf,
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'qrCode');
		const input = qrInput(this, itemIndex, 'updateFields');
		const { message } = await client.qrCodes.update(id, input);
		return qrOutput(done(id, 'updated', message), input);
	},
};
