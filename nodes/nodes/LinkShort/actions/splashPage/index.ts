import { defineResource } from '../resource';
import { getMany } from './getMany.operation';

export const splashPage = defineResource({ name: 'splashPage', displayName: 'Splash Page', defaultOperation: 'getMany' }, [
	{ name: 'Get Many', value: 'getMany', action: 'Get many splash pages', description: 'List custom splash pages', operation: getMany },
]);
