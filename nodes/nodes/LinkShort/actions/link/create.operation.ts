import type { IDataObject } from 'n8n-workflow';
import { createOrReuse } from '@linkshort/client/core';
import type { Operation } from '../operation';
import { linkOutput } from '../outputs';
import { linkIndexFor } from '../../../shared/accountIndexes';
import { createFields, linkInput, linkParameterOf } from './fields';

export const create: Operation = {
	properties: createFields,
	parameterOf: linkParameterOf,
	async execute(client, itemIndex) {
		const input = linkInput(this, itemIndex, 'additionalFields');
		const { reuse } = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		if (reuse !== true) return linkOutput(await client.links.create(input), input);
		const link = await createOrReuse(client, linkIndexFor(client), input);
		return { ...linkOutput(link, input), reused: link.reused };
	},
};
