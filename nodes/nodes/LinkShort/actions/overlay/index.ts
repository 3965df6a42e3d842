import { defineResource } from '../resource';
import { getMany } from './getMany.operation';

export const overlay = defineResource({ name: 'overlay', displayName: 'CTA Overlay', defaultOperation: 'getMany' }, [
	{ name: 'Get Many', value: 'getMany', action: 'Get many CTA overlays', description: 'List call-to-action overlays', operation: getMany },
]);
