import { collect, returnAllFields } from '../returnAll';
import type { Operation } from '../operation';
import { simpleQrListItem, simplified, simplifyField } from '../simplify';

export const getMany: Operation = {
	properties: [...returnAllFields(), simplifyField],
	async execute(client, itemIndex) {
		const shape = simplified(this, itemIndex) ? simpleQrListItem : undefined;
		return await collect(this, itemIndex, (limit) => client.qrCodes.list({ limit }), shape);
	},
};
