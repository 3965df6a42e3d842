import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { Operation } from './operation';

export interface OperationEntry<Value extends string> {
	name: string;
	value: Value;
	action: string;
	description: string;
	operation: Operation;
	/** What n8n's AI workflow builder reads to tell which operation fits a request. */
	builderHint?: string;
}

export interface Resource<Name extends string, OperationName extends string> {
	/** The resource's value in the Resource list. */
	name: Name;
	/** What the Resource list shows. */
	displayName: string;
	/** The resource's operation selector and every operation's fields. */
	description: INodeProperties[];
	operations: Record<OperationName, Operation>;
}

/**
 * Puts every property of an operation under its resource and operation, keeping the show and hide
 * conditions the property declares itself (a QR type's fields, Limit under Return All).
 */
function forOperation(resource: string, operation: string, properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => {
		const own: IDisplayOptions = property.displayOptions ?? {};
		return { ...property, displayOptions: { ...own, show: { ...own.show, resource: [resource], operation: [operation] } } };
	});
}

/** A resource's operation selector and every operation's fields, from one list of operations. */
export function defineResource<Name extends string, OperationName extends string>(
	{ name, displayName, defaultOperation }: { name: Name; displayName: string; defaultOperation: NoInfer<OperationName> },
	entries: Array<OperationEntry<OperationName>>,
): Resource<Name, OperationName> {
	const options: INodePropertyOptions[] = entries
		.map(({ name: optionName, value, action, description, builderHint }) => ({
			name: optionName,
			value,
			action,
			description,
			...(builderHint ? { builderHint: { propertyHint: builderHint } } : {}),
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [name] } },
		options,
		default: defaultOperation,
	};
	return {
		name,
		displayName,
		description: [selector, ...entries.flatMap((entry) => forOperation(name, entry.value, entry.operation.properties))],
		operations: Object.fromEntries(entries.map((entry) => [entry.value, entry.operation])) as Record<OperationName, Operation>,
	};
}
