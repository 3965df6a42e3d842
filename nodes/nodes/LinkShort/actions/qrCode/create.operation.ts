import type { Operation } from '../operation';
import { qrOutput } from '../outputs';
import { createFields, qrInput, qrParameterOf } from './fields';

export const create: Operation = {
	properties: createFields,
	parameterOf: qrParameterOf,
	async execute(client, itemIndex) {
		const input = qrInput(this, itemIndex, 'additionalFields');
		return qrOutput(await client.qrCodes.create(input), input);
	},
};
