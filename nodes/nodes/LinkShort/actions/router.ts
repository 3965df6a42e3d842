import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { linkShortClient } from '../../shared/client';
import { linkIndexFor } from '../../shared/accountIndexes';
import { madeLinksFor } from '../../shared/madeLinks';
import { toNodeError } from '../../shared/errors';
import { withDateOffsets } from '../../shared/outputDates';
import { fieldLabel } from './fieldLabel';
import { ItemWithBinary, type Operation } from './operation';
import { operationNamed } from './resources';

/** The option n8n adds to the Resource and Operation lists of nodes whose credential can sign other nodes' requests. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/** The operation chosen for an item; the error a person can act on when there is none. */
function chosenOperation(this: IExecuteFunctions, itemIndex: number): Operation {
	const resource = this.getNodeParameter('resource', itemIndex) as string;
	const operation = resource === CUSTOM_API_CALL ? CUSTOM_API_CALL : (this.getNodeParameter('operation', itemIndex) as string);
	if (operation === CUSTOM_API_CALL) {
		throw new NodeOperationError(this.getNode(), 'Custom API Call is made with the HTTP Request node', {
			itemIndex,
			description:
				'Add an HTTP Request node, set Authentication to "Predefined Credential Type" and choose "LinkShort API": n8n then signs the request with this credential. This node runs the operations in its Operation list.',
		});
	}
	const chosen = operationNamed(resource, operation);
	if (!chosen) throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`, { itemIndex });
	return chosen;
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
	const client = await linkShortClient(this);
	const timeZone = this.getTimezone();
	// The account's link index watches every execution's client, so that what any operation changes
	// (a link updated with a password, re-pointed, deleted) is known to Create's reuse at once.
	linkIndexFor(client);
	// ... and the workflow's record of the links it made drops those that any of its nodes change.
	madeLinksFor(this, client);

	for (let itemIndex = 0; itemIndex < items.length; itemIndex += 1) {
		let operation: Operation | undefined;
		try {
			operation = chosenOperation.call(this, itemIndex);
			const result = await operation.execute.call(this, client, itemIndex);
			if (result instanceof ItemWithBinary) {
				output.push({ json: withDateOffsets(result.json, timeZone), binary: result.binary, pairedItem: { item: itemIndex } });
				continue;
			}
			for (const json of Array.isArray(result) ? result : [result]) {
				output.push({ json: withDateOffsets(json as IDataObject, timeZone), pairedItem: { item: itemIndex } });
			}
		} catch (error) {
			const { properties = [], parameterOf } = operation ?? {};
			const label = (field: string) => fieldLabel(properties, parameterOf ? parameterOf.call(this, field, itemIndex) : field);
			const nodeError = toNodeError(this.getNode(), error, itemIndex, label);
			if (this.continueOnFail()) {
				output.push({ json: { error: nodeError.message }, pairedItem: { item: itemIndex } });
				continue;
			}
			throw nodeError;
		}
	}
	return [output];
}
