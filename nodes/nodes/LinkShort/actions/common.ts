import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { LinkShortClient, PagePromise } from '@linkshort/client/core';

/** Runs one operation for one input item; returns the output items' JSON. */
export type OperationExecute = (
	this: IExecuteFunctions,
	client: LinkShortClient,
	itemIndex: number,
) => Promise<IDataObject | IDataObject[]>;

export interface Operation {
	/** The operation's fields with the conditions they declare themselves; `defineResource` puts them under their resource and operation. */
	properties: INodeProperties[];
	execute: OperationExecute;
	/** The node parameter (dotted path) a field of the client's input comes from, where the names differ. */
	parameterOf?: (this: IExecuteFunctions, field: string, itemIndex: number) => string;
}

function isProperty(option: unknown): option is INodeProperties {
	return typeof option === 'object' && option !== null && 'type' in option;
}

function findParameter(properties: INodeProperties[], name: string): INodeProperties | undefined {
	const top = properties.find((property) => property.name === name);
	if (top) return top;
	for (const property of properties) {
		if (property.type !== 'collection') continue;
		const nested = (property.options ?? []).filter(isProperty).find((option) => option.name === name);
		if (nested) return nested;
	}
	return undefined;
}

/**
 * A field as the node shows it: `url` is "URL", `custom` "Custom Alias",
 * `geotarget.0.link` "Geo-Targeting 1: Link", `vcard.email` "Contact: Email".
 */
export function fieldLabel(properties: INodeProperties[], path: string): string {
	const [first = '', ...rest] = path.split('.');
	const property = findParameter(properties, first);
	if (!property) return path;
	let label = property.displayName;
	let columns: INodeProperties[] = [];
	if (property.type === 'fixedCollection') {
		columns = (property.options ?? []).flatMap((group) => ('values' in group ? group.values : []));
	} else if (property.type === 'collection') {
		columns = (property.options ?? []).filter(isProperty);
	}
	for (const part of rest) {
		if (/^\d+$/.test(part)) {
			label += ` ${Number(part) + 1}`;
			continue;
		}
		label += `: ${columns.find((column) => column.name === part)?.displayName ?? part}`;
	}
	return label;
}

/**
 * Puts every property of an operation under its resource and operation, keeping the show and hide
 * conditions the property declares itself (a QR type's fields, Limit under Return All).
 */
export function forOperation(resource: string, operation: string, properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => {
		const own: IDisplayOptions = property.displayOptions ?? {};
		return { ...property, displayOptions: { ...own, show: { ...own.show, resource: [resource], operation: [operation] } } };
	});
}

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

/** Whether the output is simplified: on by default from version 1.1, off (the API's shape) before. */
export function simplified(context: IExecuteFunctions, itemIndex: number): boolean {
	return context.getNodeParameter('simplify', itemIndex, false) as boolean;
}

/** Drops empty optional values, so that only what the user filled in is sent. */
export function filled<T extends IDataObject>(values: T): Partial<T> {
	return Object.fromEntries(
		Object.entries(values).filter(([, value]) => value !== '' && value !== undefined && value !== null),
	) as Partial<T>;
}

/** An operation's output for a delete or an update that answers only a message. */
export function done(id: number, key: 'deleted' | 'updated', message: string): IDataObject {
	return { id, [key]: true, message };
}
