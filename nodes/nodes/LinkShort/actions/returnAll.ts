import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { PagePromise } from '@linkshort/client/core';

export function returnAllFields(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1 },
			displayOptions: { show: { returnAll: [false] } },
			description: 'Max number of results to return',
		},
	];
}

/** Reads Return All / Limit and walks the client's pages, reading only the pages needed; `shape` makes each output item. */
export async function collect<T>(
	context: IExecuteFunctions,
	itemIndex: number,
	list: (pageSize: number | undefined) => PagePromise<T>,
	shape?: (item: T) => IDataObject,
): Promise<IDataObject[]> {
	const returnAll = context.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? undefined : (context.getNodeParameter('limit', itemIndex, 50) as number);
	const items = limit === undefined ? await list(100).toArray() : await list(Math.min(limit, 100)).toArray(limit);
	return shape ? items.map(shape) : (items as IDataObject[]);
}
