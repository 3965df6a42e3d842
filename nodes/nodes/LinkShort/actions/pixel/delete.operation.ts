import { done, idField, type Operation } from '../common';

export const deletePixel: Operation = {
	properties: [idField('Pixel ID', 'The ID of the pixel to delete')],
	async execute(client, itemIndex) {
		const id = this.getNodeParameter('id', itemIndex) as number;
		const { message } = await client.pixels.delete(id);
		return done(id, 'deleted', message);
	},
};
