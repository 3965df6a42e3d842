import { sleep } from 'n8n-workflow';
import { LinkShortClient, trimTrailingSlashes } from '@linkshort/client/core';
import { createHash } from 'crypto';
import { CREDENTIALS, n8nTransport, type HttpContext } from './transport';

/**
 * Which account the node's credential names, as a digest of its base URL and API key: state kept
 * per account (the trigger's) can tell a switched credential, and holds no key.
 */
export async function accountFingerprint(context: HttpContext): Promise<string> {
	const credentials = await context.getCredentials<{ baseUrl: string; apiKey: string }>(CREDENTIALS);
	const baseUrl = trimTrailingSlashes(String(credentials.baseUrl ?? '').trim()).toLowerCase();
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
