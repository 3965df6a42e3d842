import { done, idField, type Operation } from '../common';

export const deleteQrCode: Operation = {
	properties: [idField('QR Code ID', 'The ID of the QR code to delete')],
	async execute(client, itemIndex) {
		const id = this.getNodeParameter('id', itemIndex) as number;
		const { message } = await client.qrCodes.delete(id);
		return done(id, 'deleted', message);
	},
};
