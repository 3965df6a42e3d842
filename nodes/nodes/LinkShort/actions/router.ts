import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { linkShortClient, toNodeError } from '../transport';
import type { OperationExecute } from './common';
import { account } from './account';
import { domain } from './domain';
import { link } from './link';
import { overlay } from './overlay';
import { pixel } from './pixel';
import { plan } from './plan';
import { qrCode } from './qrCode';
import { splashPage } from './splashPage';
import { user } from './user';

export const resources = { account, domain, splashPage, overlay, link, pixel, qrCode, plan, user } as const;

export type ResourceName = keyof typeof resources;

function operationOf(resource: ResourceName, operation: string): OperationExecute | undefined {
	const operations = resources[resource].operations as Record<string, { execute: OperationExecute }>;
	return operations[operation]?.execute;
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
	const client = await linkShortClient(this);

	for (let itemIndex = 0; itemIndex < items.length; itemIndex += 1) {
		try {
			const resource = this.getNodeParameter('resource', itemIndex) as ResourceName;
			const operation = this.getNodeParameter('operation', itemIndex) as string;
			const execute = resources[resource] ? operationOf(resource, operation) : undefined;
			if (!execute) {
				throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`, { itemIndex });
			}
			const result = await execute.call(this, client, itemIndex);
			for (const json of Array.isArray(result) ? result : [result]) {
				output.push({ json: json as IDataObject, pairedItem: { item: itemIndex } });
			}
		} catch (error) {
			const nodeError = toNodeError(this.getNode(), error, itemIndex);
			if (this.continueOnFail()) {
				output.push({ json: { error: nodeError.message }, pairedItem: { item: itemIndex } });
				continue;
			}
			throw nodeError;
		}
	}
	return [output];
}
