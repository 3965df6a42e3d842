import type { Operation } from '../common';
import { createFields, qrInput } from './fields';

export const create: Operation = {
	properties: createFields,
	async execute(client, itemIndex) {
		return await client.qrCodes.create(qrInput(this, itemIndex, 'additionalFields'));
	},
};
