import { sleep } from 'n8n-workflow';
import { LinkShortClient } from '@linkshort/client/core';
import { CREDENTIALS, n8nTransport, type HttpContext } from './transport';

/** A client over the node's credentials, n8n's HTTP helper and n8n's sleep; `deadline`: when each of its calls must be over (a poll's). */
export async function linkShortClient(context: HttpContext, deadline?: number): Promise<LinkShortClient> {
	const credentials = await context.getCredentials<{ baseUrl: string; apiKey: string }>(CREDENTIALS);
	return new LinkShortClient({
		baseUrl: String(credentials.baseUrl ?? '').trim(),
		apiKey: String(credentials.apiKey ?? ''),
		transport: n8nTransport(context),
		transportAuthenticates: true,
		sleep: async (ms) => await sleep(ms),
		userAgent: 'n8n-nodes-linkshort',
		...(deadline === undefined ? {} : { deadline }),
	});
}
