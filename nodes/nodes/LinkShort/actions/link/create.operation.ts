import { createLink } from '@linkshort/client/core';
import type { Operation } from '../operation';
import { linkOutput } from '../outputs';
import { linkIndexFor } from '../../../shared/accountIndexes';
import { madeLinksFor } from '../../../shared/madeLinks';
import { toNodeError } from '../../../shared/errors';
import { fieldLabel } from '../fieldLabel';
import { createFields, linkInput, linkParameterOf, reuseAsked } from './fields';

export const create: Operation = {
	properties: createFields,
	parameterOf: linkParameterOf,
	async execute(client, itemIndex) {
		const input = linkInput(this, itemIndex, 'additionalFields');
		const { reuse, remember } = reuseAsked(this, itemIndex);
		if (!reuse) return linkOutput(await createLink(client, linkIndexFor(client), input), input);
		let notReused: string | undefined;
		const made = madeLinksFor(this, client);
		try {
			const record = made.record(remember);
			const link = await createLink(client, linkIndexFor(client), input, { reuse: true, record, onNotReused: (reason) => (notReused = reason) });
			made.save();
			return { ...linkOutput(link, input), reused: link.reused, ...(link.reused || !notReused ? {} : { notReused }) };
		} catch (error) {
			const nodeError = toNodeError(this.getNode(), error, itemIndex, (field) => fieldLabel(createFields, linkParameterOf(field)));
			// The server's message ("That alias is taken") says what failed; the reason says why reuse did not avoid it.
			if (notReused) nodeError.description = [`Not reused: ${notReused}.`, nodeError.description].filter(Boolean).join(' ');
			throw nodeError;
		}
	},
};
