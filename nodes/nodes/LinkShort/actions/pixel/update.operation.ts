import { done } from '../outputs';
import { filled } from '../filled';
import type { Operation } from '../operation';
import { idLocator, locatedId } from '../locators';
import { tagField } from './fields';

export const update: Operation = {
	properties: [
		idLocator('pixel', 'The ID of the pixel to update'),
		tagField,
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'A new name for the pixel' }],
		},
	],
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'pixel');
		const tag = this.getNodeParameter('tag', itemIndex) as string;
		const fields = this.getNodeParameter('updateFields', itemIndex, {}) as { name?: string };
		const { message } = await client.pixels.update(id, { tag, ...filled(fields) });
		return done(id, 'updated', message);
	},
};
