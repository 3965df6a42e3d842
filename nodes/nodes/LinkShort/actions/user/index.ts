import { defineResource } from '../resource';
import { create } from './create.operation';
import { deleteUser } from './delete.operation';
import { get } from './get.operation';
import { getLoginLink } from './getLoginLink.operation';
import { getMany } from './getMany.operation';

export const user = defineResource({ name: 'user', displayName: 'User', defaultOperation: 'getMany' }, [
	{ name: 'Create', value: 'create', action: 'Create a user', description: 'Register a user (administrators only)', operation: create },
	{ name: 'Delete', value: 'delete', action: 'Delete a user', description: 'Delete a user and their data (administrators only)', operation: deleteUser },
	{ name: 'Get', value: 'get', action: 'Get a user', description: 'Get a user (administrators only)', operation: get },
	{
		name: 'Get Login Link',
		value: 'getLoginLink',
		action: 'Get a login link for a user',
		description: 'Create a single-use login link, valid for one hour (administrators only)',
		operation: getLoginLink,
	},
	{ name: 'Get Many', value: 'getMany', action: 'Get many users', description: 'List users (administrators only)', operation: getMany },
]);
