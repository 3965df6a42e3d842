import { defineResource } from '../resource';
import { create } from './create.operation';
import { deleteLink } from './delete.operation';
import { get } from './get.operation';
import { getMany } from './getMany.operation';
import { update } from './update.operation';

export const link = defineResource(
	{ name: 'link', displayName: 'Link', defaultOperation: 'create' },
	[
		{ name: 'Create', value: 'create', action: 'Shorten a link', description: 'Create a short link for a long URL', operation: create },
		{ name: 'Delete', value: 'delete', action: 'Delete a link', description: 'Delete a short link', operation: deleteLink },
		{ name: 'Get', value: 'get', action: 'Get a link', description: 'Get a short link with its statistics', operation: get },
		{ name: 'Get Many', value: 'getMany', action: 'Get many links', description: 'List short links by date or clicks', operation: getMany },
		{ name: 'Update', value: 'update', action: 'Update a link', description: 'Change a short link', operation: update },
	],
);
