import { done } from '../outputs';
import type { Operation } from '../operation';
import { idLocator, locatedId } from '../locators';

export const deletePixel: Operation = {
	properties: [idLocator('pixel', 'The ID of the pixel to delete')],
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'pixel');
		const { message } = await client.pixels.delete(id);
		return done(id, 'deleted', message);
	},
};
