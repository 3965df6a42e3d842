import type { INodeProperties } from 'n8n-workflow';
import type { UserCreateInput } from '@linkshort/client/core';
import type { Operation } from '../operation';
import { toApiTimestamp } from '../dates';

const properties: INodeProperties[] = [
	{ displayName: 'Username', name: 'username', type: 'string', required: true, default: '', description: '3 to 20 letters or digits' },
	{ displayName: 'Email', name: 'email', type: 'string', required: true, default: '', placeholder: 'name@email.com', description: "The user's e-mail address" },
	{
		displayName: 'Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description: 'At least 5 characters',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{ displayName: 'Membership Expiration', name: 'expiration', type: 'dateTime', default: '', description: 'When the membership ends' },
			{ displayName: 'Plan ID', name: 'planid', type: 'number', default: 0, typeOptions: { minValue: 1 }, description: 'The plan to put the user on' },
		],
	},
];

export const create: Operation = {
	properties,
	async execute(client, itemIndex) {
		const { planid, expiration } = this.getNodeParameter('additionalFields', itemIndex, {}) as { planid?: number; expiration?: string };
		const input: UserCreateInput = {
			username: this.getNodeParameter('username', itemIndex) as string,
			email: this.getNodeParameter('email', itemIndex) as string,
			password: this.getNodeParameter('password', itemIndex) as string,
			...(planid ? { planid } : {}),
			...(expiration ? { expiration: toApiTimestamp(expiration, this.getTimezone()) } : {}),
		};
		const created = await client.users.create(input);
		return { ...created, email: created.email ?? input.email, username: created.username ?? input.username };
	},
};
