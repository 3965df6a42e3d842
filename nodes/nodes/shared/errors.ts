import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { isLinkShortError } from '@linkshort/client/core';

/**
 * n8n's error for a failure: the client's field-named ValidationError becomes a
 * NodeOperationError naming the fields through `fieldLabel`, any other client error a NodeApiError with the server's message and status.
 * Client messages never contain the API key. Client errors are told apart by their code, never by
 * class: another node package may bundle another copy of the client.
 */
export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
	fieldLabel: (field: string) => string = (field) => field,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeOperationError || error instanceof NodeApiError) return error;
	if (isLinkShortError(error, 'LINKSHORT_INVALID_INPUT')) {
		// One message naming each field as the node shows it; a description would repeat it in n8n's error panel.
		const message = error.issues.map((issue) => `${fieldLabel(issue.field)}: ${issue.message}`).join('; ');
		return new NodeOperationError(node, message, { itemIndex });
	}
	if (isLinkShortError(error)) {
		const httpCode = 'status' in error && typeof error.status === 'number' ? String(error.status) : undefined;
		const unreadable = isLinkShortError(error, 'LINKSHORT_UNREADABLE_ANSWER', 'LINKSHORT_ANSWER_TOO_LARGE') ? error : undefined;
		return new NodeApiError(node, { message: error.message, name: error.name } as JsonObject, {
			itemIndex,
			message: error.message,
			...(httpCode ? { httpCode } : {}),
			description: unreadable?.excerpt ? `The server answered: ${unreadable.excerpt}` : undefined,
		});
	}
	return new NodeOperationError(node, error instanceof Error ? error.message : String(error), { itemIndex });
}
