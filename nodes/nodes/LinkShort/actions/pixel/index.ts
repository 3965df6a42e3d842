import { defineResource } from '../resource';
import { create } from './create.operation';
import { deletePixel } from './delete.operation';
import { getMany } from './getMany.operation';
import { update } from './update.operation';

export const pixel = defineResource({ name: 'pixel', displayName: 'Pixel', defaultOperation: 'getMany' }, [
	{ name: 'Create', value: 'create', action: 'Create a pixel', description: 'Add a tracking pixel', operation: create },
	{ name: 'Delete', value: 'delete', action: 'Delete a pixel', description: 'Delete a tracking pixel', operation: deletePixel },
	{ name: 'Get Many', value: 'getMany', action: 'Get many pixels', description: 'List tracking pixels', operation: getMany },
	{ name: 'Update', value: 'update', action: 'Update a pixel', description: 'Change a tracking pixel', operation: update },
]);
