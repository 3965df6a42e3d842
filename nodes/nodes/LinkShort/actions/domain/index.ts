import { defineResource } from '../resource';
import { create } from './create.operation';
import { deleteDomain } from './delete.operation';
import { getMany } from './getMany.operation';
import { update } from './update.operation';

export const domain = defineResource({ name: 'domain', displayName: 'Domain', defaultOperation: 'getMany' }, [
	{ name: 'Create', value: 'create', action: 'Create a domain', description: 'Add a branded domain', operation: create },
	{ name: 'Delete', value: 'delete', action: 'Delete a domain', description: 'Remove a branded domain', operation: deleteDomain },
	{ name: 'Get Many', value: 'getMany', action: 'Get many domains', description: 'List branded domains', operation: getMany },
	{ name: 'Update', value: 'update', action: 'Update a domain', description: 'Change where a branded domain redirects', operation: update },
]);
