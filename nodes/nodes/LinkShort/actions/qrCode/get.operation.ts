import { idField, type Operation } from '../common';

export const get: Operation = {
	properties: [idField('QR Code ID', 'The ID of the QR code')],
	async execute(client, itemIndex) {
		const id = this.getNodeParameter('id', itemIndex) as number;
		return await client.qrCodes.get(id);
	},
};
