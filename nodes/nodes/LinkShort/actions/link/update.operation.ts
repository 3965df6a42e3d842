import type { Operation } from '../operation';
import { idLocator, locatedId } from '../locators';
import { linkOutput } from '../outputs';
import { linkInput, linkParameterOf, updateFields } from './fields';

export const update: Operation = {
	properties: [idLocator('link', 'The ID of the short link to update'), ...updateFields],
	parameterOf: linkParameterOf,
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'link');
		const input = linkInput(this, itemIndex, 'updateFields');
		return linkOutput(await client.links.update(id, input), input);
	},
};
