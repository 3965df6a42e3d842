import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { forOperation, type Operation } from './common';

export interface OperationEntry {
	name: string;
	value: string;
	action: string;
	description: string;
	operation: Operation;
}

/** A resource's operation selector and every operation's fields, from one list of operations. */
export function defineResource(resource: string, entries: OperationEntry[], defaultOperation: string) {
	const options: INodePropertyOptions[] = entries
		.map(({ name, value, action, description }) => ({ name, value, action, description }))
		.sort((a, b) => a.name.localeCompare(b.name));
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: defaultOperation,
	};
	return {
		description: [selector, ...entries.flatMap((entry) => forOperation(resource, entry.value, entry.operation.properties))],
		operations: Object.fromEntries(entries.map((entry) => [entry.value, entry.operation])) as Record<string, Operation>,
	};
}
