import { defineResource } from '../resource';
import { get } from './get.operation';
import { update } from './update.operation';

export const account = defineResource({ name: 'account', displayName: 'Account', defaultOperation: 'get' }, [
	{ name: 'Get', value: 'get', action: 'Get the account', description: 'Get the account of the API key', operation: get },
	{ name: 'Update', value: 'update', action: 'Update the account', description: 'Change the e-mail address or password', operation: update },
]);
