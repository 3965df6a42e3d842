import type { INodeProperties } from 'n8n-workflow';
import { USER_FILTERS, type UserListInput } from '@linkshort/client/core';
import { collect, returnAllFields } from '../returnAll';
import { filled } from '../filled';
import type { Operation } from '../operation';
import { userOutput } from './ownKey';

const properties: INodeProperties[] = [
	...returnAllFields(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Email Contains',
				name: 'email',
				type: 'string',
				default: '',
				placeholder: 'name@email.com',
				description: 'Only users whose e-mail address contains this',
			},
			{
				displayName: 'Status',
				name: 'filter',
				type: 'options',
				options: USER_FILTERS.map((value) => ({ name: value.charAt(0).toUpperCase() + value.slice(1), value })),
				default: 'pro',
				description: 'Only administrators, free or pro users',
			},
		],
	},
];

export const getMany: Operation = {
	properties,
	async execute(client, itemIndex) {
		const filters = filled(this.getNodeParameter('filters', itemIndex, {}) as UserListInput & Record<string, string>);
		return await collect(
			this,
			itemIndex,
			() => client.users.list(filters),
			(user) => userOutput(client, user),
		);
	},
};
