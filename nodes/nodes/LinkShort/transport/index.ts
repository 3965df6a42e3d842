import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import {
	ApiError,
	LinkShortClient,
	LinkShortError,
	ResponseError,
	ValidationError,
	type Transport,
} from '@linkshort/client/core';
import { createHash } from 'crypto';
import { withoutTrailingSlashes } from '../actions/addresses';

type HttpContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

const CREDENTIALS = 'linkShortApi';

function bodyText(raw: unknown): string {
	if (typeof raw === 'string') return raw;
	if (raw === undefined || raw === null) return '';
	if (raw instanceof Uint8Array) return new TextDecoder().decode(raw);
	return JSON.stringify(raw);
}

/**
 * Sends the client's requests through n8n's own HTTP helper, so that n8n adds the credential's
 * Authorization header (the client sends none: `transportAuthenticates`), honours proxies and logs
 * requests as it does for built-in nodes. Network failures are left to the client, which
 * classifies them by their error code.
 */
function n8nTransport(context: HttpContext): Transport {
	return async ({ method, url, headers, body, timeoutMs, signal }) => {
		const options: IHttpRequestOptions = {
			method,
			url,
			headers,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			encoding: 'text',
			json: false,
			timeout: timeoutMs,
			...(signal ? { abortSignal: signal } : {}),
			...(body !== undefined ? { body } : {}),
		};
		const response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIALS,
			options,
		)) as { statusCode: number; headers: IDataObject; body: unknown };
		const responseHeaders: Record<string, string | string[] | undefined> = {};
		for (const [name, value] of Object.entries(response.headers ?? {})) {
			responseHeaders[name.toLowerCase()] = Array.isArray(value)
				? value.map(String)
				: value === undefined
					? undefined
					: String(value);
		}
		return { status: response.statusCode, headers: responseHeaders, body: bodyText(response.body) };
	};
}

/**
 * Which account the node's credential names, as a digest of its base URL and API key: state kept
 * per account (the trigger's) can tell a switched credential, and holds no key.
 */
export async function accountFingerprint(context: HttpContext): Promise<string> {
	const credentials = await context.getCredentials<{ baseUrl: string; apiKey: string }>(CREDENTIALS);
	const baseUrl = withoutTrailingSlashes(String(credentials.baseUrl ?? '').trim()).toLowerCase();
	const account = `${baseUrl.endsWith('/api') ? baseUrl.slice(0, -4) : baseUrl}\n${String(credentials.apiKey ?? '')}`;
	return createHash('sha256').update(`linkshort-account\n${account}`).digest('hex').slice(0, 32);
}

/** A client over the node's credentials, n8n's HTTP helper and n8n's sleep. */
export async function linkShortClient(context: HttpContext): Promise<LinkShortClient> {
	const credentials = await context.getCredentials<{ baseUrl: string; apiKey: string }>(CREDENTIALS);
	return new LinkShortClient({
		baseUrl: String(credentials.baseUrl ?? '').trim(),
		apiKey: String(credentials.apiKey ?? ''),
		transport: n8nTransport(context),
		transportAuthenticates: true,
		sleep: async (ms) => await sleep(ms),
		userAgent: 'n8n-nodes-linkshort',
	});
}

/**
 * n8n's error for a failure: the client's field-named ValidationError becomes a
 * NodeOperationError naming the fields through `fieldLabel`, any other client error a NodeApiError with the server's message and status.
 * Client messages never contain the API key.
 */
export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
	fieldLabel: (field: string) => string = (field) => field,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeOperationError || error instanceof NodeApiError) return error;
	if (error instanceof ValidationError) {
		// One message naming each field as the node shows it; a description would repeat it in n8n's error panel.
		const message = error.issues.map((issue) => `${fieldLabel(issue.field)}: ${issue.message}`).join('; ');
		return new NodeOperationError(node, message, { itemIndex });
	}
	if (error instanceof LinkShortError) {
		const httpCode = error instanceof ApiError || error instanceof ResponseError ? String(error.status) : undefined;
		return new NodeApiError(node, { message: error.message, name: error.name } as JsonObject, {
			itemIndex,
			message: error.message,
			...(httpCode ? { httpCode } : {}),
			description: error instanceof ResponseError && error.excerpt ? `The server answered: ${error.excerpt}` : undefined,
		});
	}
	return new NodeOperationError(node, error instanceof Error ? error.message : String(error), { itemIndex });
}
