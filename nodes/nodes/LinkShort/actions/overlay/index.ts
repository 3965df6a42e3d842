import { defineResource } from '../resource';
import { getMany } from './getMany.operation';

export const overlay = defineResource(
	'overlay',
	[{ name: 'Get Many', value: 'getMany', action: 'Get many CTA overlays', description: 'List call-to-action overlays', operation: getMany }],
	'getMany',
);
