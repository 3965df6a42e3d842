import type { Operation } from '../common';
import { createFields, qrInput, qrParameterOf } from './fields';

export const create: Operation = {
	properties: createFields,
	parameterOf: qrParameterOf,
	async execute(client, itemIndex) {
		return await client.qrCodes.create(qrInput(this, itemIndex, 'additionalFields'));
	},
};
