import { defineResource } from '../resource';
import { getMany } from './getMany.operation';
import { subscribe } from './subscribe.operation';

export const plan = defineResource({ name: 'plan', displayName: 'Plan', defaultOperation: 'getMany' }, [
	{ name: 'Get Many', value: 'getMany', action: 'Get many plans', description: 'List the plans (administrators only)', operation: getMany },
	{
		name: 'Subscribe User',
		value: 'subscribe',
		action: 'Subscribe a user to a plan',
		description: 'Put a user on a plan (administrators only)',
		operation: subscribe,
	},
]);
