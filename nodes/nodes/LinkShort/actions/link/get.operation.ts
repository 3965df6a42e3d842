import { aliasFromShortUrl } from '@linkshort/client/values';
import type { Operation } from '../operation';
import { chartField, chartFields, withChart } from '../chart';
import { idLocator, locatedId } from '../locators';
import { simpleLink, simplified, simplifyField } from '../simplify';
import { clicksOverTimeField, withClicksOverTime } from './clicksOverTime';

export const get: Operation = {
	properties: [idLocator('link', 'The short link'), simplifyField, ...chartFields('clicks'), clicksOverTimeField],
	async execute(client, itemIndex) {
		const simple = simplified(this, itemIndex);
		const field = chartField(this, itemIndex);
		const id = await locatedId(this, client, itemIndex, 'link');
		const { result: link, clicksOverTime } = await withClicksOverTime(this, client, itemIndex, id, async () => await client.links.get(id));
		const output = simple ? simpleLink(link) : link;
		return await withChart(this, field, clicksOverTime ? { ...output, clicksOverTime } : output, {
			stats: link.stats,
			title: link.details.shorturl.replace(/^https?:\/\//, ''),
			fileBase: aliasFromShortUrl(link.details.shorturl) || `link-${id}`,
			unit: 'clicks',
		});
	},
};
