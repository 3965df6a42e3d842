import { done, idField, type Operation } from '../common';
import { qrInput, qrParameterOf, updateFields } from './fields';

export const update: Operation = {
	properties: [idField('QR Code ID', 'The ID of the QR code to update'), ...updateFields],
	parameterOf: qrParameterOf,
	async execute(client, itemIndex) {
		const id = this.getNodeParameter('id', itemIndex) as number;
		const { message } = await client.qrCodes.update(id, qrInput(this, itemIndex, 'updateFields'));
		return done(id, 'updated', message);
	},
};
