import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { LinkShortClient } from '@linkshort/client/core';

/** An output item that carries files (such as a chart) beside its JSON. */
export class ItemWithBinary {
	constructor(
		readonly json: IDataObject,
		readonly binary: IBinaryKeyData,
	) {}
}

/** Runs one operation for one input item; returns the output items' JSON (or one item with files). */
export type OperationExecute = (this: IExecuteFunctions, client: LinkShortClient, itemIndex: number) => Promise<IDataObject | IDataObject[] | ItemWithBinary>;

export interface Operation {
	/** The operation's fields with the conditions they declare themselves; `defineResource` puts them under their resource and operation. */
	properties: INodeProperties[];
	execute: OperationExecute;
	/** The node parameter (dotted path) a field of the client's input comes from, where the names differ. */
	parameterOf?: (this: IExecuteFunctions, field: string, itemIndex: number) => string;
}
