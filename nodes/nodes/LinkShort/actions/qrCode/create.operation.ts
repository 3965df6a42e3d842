import { forOperation, type Operation } from '../common';
import { createFields, qrInput } from './fields';

export const create: Operation = {
	description: forOperation('qrCode', 'create', createFields),
	async execute(client, itemIndex) {
		return await client.qrCodes.create(qrInput(this, itemIndex, 'additionalFields'));
	},
};
