import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from './operation';
import type { Resource } from './resource';
import { account } from './account';
import { domain } from './domain';
import { link } from './link';
import { overlay } from './overlay';
import { pixel } from './pixel';
import { plan } from './plan';
import { qrCode } from './qrCode';
import { splashPage } from './splashPage';
import { user } from './user';

/**
 * Every resource, in the order the Resource list and n8n's node creator show them (the creator lists
 * actions in the order of the description): Link, what most people come for, then the others by name.
 */
export const resources = { link, account, overlay, domain, pixel, plan, qrCode, splashPage, user } as const;

export type ResourceName = keyof typeof resources;

/** Each resource's operation names (as n8n's Discord v2 `node.type.ts`), read from the resources themselves. */
type NodeMap = { [Name in ResourceName]: (typeof resources)[Name] extends Resource<Name, infer OperationName> ? OperationName : never };

/** The same resources, typed so that a resource's operations are looked up by that resource's operation names. */
const byName: { [Name in ResourceName]: Resource<Name, NodeMap[Name]> } = resources;

const isResourceName = (value: string): value is ResourceName => Object.hasOwn(resources, value);

function isOperationOf<Name extends ResourceName>(resource: Name, value: string): value is NodeMap[Name] {
	return Object.hasOwn(resources[resource].operations, value);
}

/** The operation an item's Resource and Operation parameters name; undefined when the node has no such operation. */
export function operationNamed(resource: string, operation: string): Operation | undefined {
	if (!isResourceName(resource) || !isOperationOf(resource, operation)) return undefined;
	return operationOf(resource, operation);
}

function operationOf<Name extends ResourceName>(resource: Name, operation: NodeMap[Name]): Operation {
	return byName[resource].operations[operation];
}

/** The Resource selector, from each resource's own name, then every resource's operations and fields. */
export function resourceProperties(): INodeProperties[] {
	const selector: INodeProperties = {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: Object.values(resources).map((resource) => ({ name: resource.displayName, value: resource.name })),
		default: 'link',
	};
	return [selector, ...Object.values(resources).flatMap((resource) => resource.description)];
}

/**
 * The canvas subtitle: the chosen operation's action ("Shorten a link", "Get many links"), as the
 * node creator names it, rather than the raw values ("create: link").
 */
export function operationSubtitle(properties: INodeProperties[]): string {
	const actions: Record<string, string> = {};
	for (const property of properties) {
		const resource = property.name === 'operation' ? property.displayOptions?.show?.resource?.[0] : undefined;
		for (const option of resource === undefined ? [] : (property.options ?? [])) {
			if ('action' in option && option.action) actions[`${String(resource)}:${String(option.value)}`] = option.action;
		}
	}
	return `={{ ${JSON.stringify(actions)}[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
}
