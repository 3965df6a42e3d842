import type { PixelType } from '@linkshort/client/core';
import type { Operation } from '../operation';
import { pixelTypeField, tagField } from './fields';

export const create: Operation = {
	properties: [
		pixelTypeField,
		{ displayName: 'Name', name: 'name', type: 'string', required: true, default: '', description: 'A name to recognise the pixel by' },
		tagField,
	],
	async execute(client, itemIndex) {
		const input = {
			type: this.getNodeParameter('type', itemIndex) as PixelType,
			name: this.getNodeParameter('name', itemIndex) as string,
			tag: this.getNodeParameter('tag', itemIndex) as string,
		};
		const { id } = await client.pixels.create(input);
		return { id, ...input };
	},
};
