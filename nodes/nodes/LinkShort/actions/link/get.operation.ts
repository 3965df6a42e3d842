import { aliasFromShortUrl } from '@linkshort/client/core';
import type { Operation } from '../operation';
import { chartField, chartFields, withChart } from '../chart';
import { idLocator, locatedId } from '../locators';
import { simpleLink, simplified, simplifyField } from '../simplify';

export const get: Operation = {
	properties: [idLocator('link', 'The short link'), simplifyField, ...chartFields('clicks')],
	async execute(client, itemIndex) {
		const simple = simplified(this, itemIndex);
		const field = chartField(this, itemIndex);
		const id = await locatedId(this, client, itemIndex, 'link');
		const link = await client.links.get(id);
		return await withChart(this, field, simple ? simpleLink(link) : link, {
			stats: link.stats,
			title: link.details.shorturl.replace(/^https?:\/\//, ''),
			fileBase: aliasFromShortUrl(link.details.shorturl) || `link-${id}`,
			unit: 'clicks',
		});
	},
};
