import { defineResource } from '../resource';
import { create } from './create.operation';
import { deleteLink } from './delete.operation';
import { get } from './get.operation';
import { getMany } from './getMany.operation';
import { createAnsweringAsGet, updateAnsweringAsGet } from './heldLink';
import { LINK_BUILDER_HINTS } from './builderHints';
import { update } from './update.operation';

export const link = defineResource({ name: 'link', displayName: 'Link', defaultOperation: 'create' }, [
	{
		name: 'Create',
		value: 'create',
		action: 'Shorten a link',
		description: 'Create a short link for a long URL',
		operation: createAnsweringAsGet(create),
		builderHint: LINK_BUILDER_HINTS.create,
	},
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a link',
		description: 'Delete a short link',
		operation: deleteLink,
		builderHint: LINK_BUILDER_HINTS.delete,
	},
	{ name: 'Get', value: 'get', action: 'Get a link', description: 'Get a short link with its statistics', operation: get, builderHint: LINK_BUILDER_HINTS.get },
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many links',
		description: 'List short links by date or clicks',
		operation: getMany,
		builderHint: LINK_BUILDER_HINTS.getMany,
	},
	{
		name: 'Update',
		value: 'update',
		action: 'Update a link',
		description: 'Change a short link',
		operation: updateAnsweringAsGet(update),
		builderHint: LINK_BUILDER_HINTS.update,
	},
]);
