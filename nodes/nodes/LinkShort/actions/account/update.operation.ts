import type { INodeProperties } from 'n8n-workflow';
import { filled } from '../filled';
import type { Operation } from '../operation';

const properties: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
				description: 'The new e-mail address of the account',
			},
			{
				displayName: 'Password',
				name: 'password',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description: 'The new password, at least 5 characters',
			},
		],
	},
];

export const update: Operation = {
	properties,
	async execute(client, itemIndex) {
		const fields = this.getNodeParameter('updateFields', itemIndex, {}) as { email?: string; password?: string };
		const result = await client.account.update(filled(fields));
		return { updated: true, message: result.message };
	},
};
