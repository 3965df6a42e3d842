import type { Operation } from '../operation';
import { idLocator, locatedId } from '../locators';
import { simpleLink, simplified, simplifyField } from '../simplify';

export const get: Operation = {
	properties: [idLocator('link', 'The short link'), simplifyField],
	async execute(client, itemIndex) {
		const simple = simplified(this, itemIndex);
		const id = await locatedId(this, client, itemIndex, 'link');
		const link = await client.links.get(id);
		return simple ? simpleLink(link) : link;
	},
};
