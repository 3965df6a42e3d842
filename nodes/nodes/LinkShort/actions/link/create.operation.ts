import type { IDataObject } from 'n8n-workflow';
import { createOrReuse, createTracked } from '@linkshort/client/core';
import type { Operation } from '../operation';
import { linkOutput } from '../outputs';
import { linkIndexFor } from '../../../shared/accountIndexes';
import { toNodeError } from '../../../shared/errors';
import { fieldLabel } from '../fieldLabel';
import { createFields, linkInput, linkParameterOf } from './fields';

export const create: Operation = {
	properties: createFields,
	parameterOf: linkParameterOf,
	async execute(client, itemIndex) {
		const input = linkInput(this, itemIndex, 'additionalFields');
		const { reuse } = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const index = linkIndexFor(client);
		// Made through the index either way, so that a later Create with reuse on can compare this link.
		if (reuse !== true) return linkOutput(await createTracked(client, index, input), input);
		let notReused: string | undefined;
		try {
			const link = await createOrReuse(client, index, input, { onNotReused: (reason) => (notReused = reason) });
			return { ...linkOutput(link, input), reused: link.reused, ...(link.reused || !notReused ? {} : { notReused }) };
		} catch (error) {
			const nodeError = toNodeError(this.getNode(), error, itemIndex, (field) => fieldLabel(createFields, linkParameterOf(field)));
			// The server's message ("That alias is taken") says what failed; the reason says why reuse did not avoid it.
			if (notReused) nodeError.description = [`Not reused: ${notReused}.`, nodeError.description].filter(Boolean).join(' ');
			throw nodeError;
		}
	},
};
