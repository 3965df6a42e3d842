import type { INodeProperties } from 'n8n-workflow';
import { PLAN_TYPES, type PlanSubscribeInput } from '@linkshort/client/core';
import type { Operation } from '../operation';
import { idLocator, locatedId } from '../locators';
import { toApiTimestamp } from '../dates';

const properties: INodeProperties[] = [
	idLocator('plan', 'The plan to put the user on', 'planId'),
	idLocator('user', 'The user to subscribe', 'userId'),
	{
		displayName: 'Billing Period',
		name: 'type',
		type: 'options',
		required: true,
		options: PLAN_TYPES.map((value) => ({ name: value.charAt(0).toUpperCase() + value.slice(1), value })),
		default: 'monthly',
		description: 'The subscription period; it sets the expiry when none is given',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [{ displayName: 'Expiration', name: 'expiration', type: 'dateTime', default: '', description: 'When the subscription ends' }],
	},
];

export const subscribe: Operation = {
	properties,
	async execute(client, itemIndex) {
		const planId = await locatedId(this, client, itemIndex, 'plan', 'planId');
		const userId = await locatedId(this, client, itemIndex, 'user', 'userId');
		const type = this.getNodeParameter('type', itemIndex) as PlanSubscribeInput['type'];
		const { expiration } = this.getNodeParameter('additionalFields', itemIndex, {}) as { expiration?: string };
		const input: PlanSubscribeInput = { type, ...(expiration ? { expiration: toApiTimestamp(expiration, this.getTimezone()) } : {}) };
		const { message } = await client.plans.subscribe(planId, userId, input);
		return { planId, userId, ...input, subscribed: true, message };
	},
};
