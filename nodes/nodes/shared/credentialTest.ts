import type { ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { isLinkShortError, LinkShortClient, type Transport } from '@linkshort/client/core';

const EXAMPLE = 'https://short.example.com';

/**
 * The client's requests through the helper n8n gives a credential test (the request library's
 * options); the client adds the key itself here, as no credential is applied to these requests.
 */
function credentialTestTransport(context: ICredentialTestFunctions): Transport {
	return async ({ method, url, headers, body, timeoutMs }) => {
		const response = (await context.helpers.request({
			method,
			uri: url,
			headers,
			...(body !== undefined ? { body } : {}),
			timeout: timeoutMs,
			json: false,
			simple: false,
			resolveWithFullResponse: true,
		})) as { statusCode: number; headers?: Record<string, string | string[] | undefined>; body?: unknown };
		const text = typeof response.body === 'string' ? response.body : response.body === undefined || response.body === null ? '' : JSON.stringify(response.body);
		return { status: response.statusCode, headers: response.headers ?? {}, body: text };
	};
}

const hostOf = (baseUrl: string) => {
	try {
		return new URL(baseUrl).host;
	} catch {
		return baseUrl;
	}
};

/** A host on this machine or a private network: a local service (the sandbox of `npm start`) speaks plain http. */
const LOCAL_HOST =
	/^(localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\]|10\.\d+\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|192\.168\.\d+\.\d+|host\.docker\.internal|[a-z0-9-]{1,63}\.local)(:\d+)?(\/|$)/i;

/** A TLS hello answered by a server that speaks plain http: OpenSSL's "wrong version number", EPROTO to Node. */
const PLAIN_HTTP_ANSWER = /EPROTO|WRONG_VERSION_NUMBER|wrong version number/i;

/** The advice for a Base URL written without a scheme: https for a service on the internet, http for a local one. */
function missingScheme(address: string): string {
	return LOCAL_HOST.test(address.slice(0, 300))
		? `Base URL must start with http:// or https://: write http://${address} (a service on this machine or network, such as the local sandbox, usually speaks plain http).`
		: `Base URL must start with https:// (or http://): write https://${address}.`;
}

/**
 * What a person changes in the credential for each way the test can fail; any other failure's own
 * message, with the key removed (`redact`).
 */
function advice(error: unknown, baseUrl: string, redact: (text: string) => string): string {
	const host = hostOf(baseUrl);
	if (isLinkShortError(error, 'LINKSHORT_INVALID_INPUT') && !error.issues.some((issue) => issue.field === 'baseUrl'))
		return 'Enter the API key from the Developer API page of your account.';
	if (isLinkShortError(error, 'LINKSHORT_INVALID_INPUT')) {
		return /^[a-z][a-z0-9+.-]*:\/\//i.test(baseUrl)
			? `Base URL must be a web address that starts with https:// (or http://), such as ${EXAMPLE}.`
			: missingScheme(baseUrl.replace(/^\/+/, '') || 'short.example.com');
	}
	if (isLinkShortError(error, 'LINKSHORT_AUTHENTICATION_FAILED', 'LINKSHORT_PERMISSION_DENIED')) {
		return 'The service refused this API key. Copy the key again from the Developer API page of your account (all of it, no spaces), and check that Base URL is the address of the account that issued it.';
	}
	if (isLinkShortError(error, 'LINKSHORT_NOT_FOUND', 'LINKSHORT_UNREADABLE_ANSWER', 'LINKSHORT_ANSWER_TOO_LARGE')) {
		return `No API answered at this Base URL. Use the address of your link-shortening service, such as ${EXAMPLE}, without /api.`;
	}
	if (isLinkShortError(error, 'LINKSHORT_CONNECTION_FAILED')) {
		const { networkCode } = error;
		if (networkCode === 'ENOTFOUND' || networkCode === 'EAI_AGAIN')
			return `No server named ${host} was found. Check the spelling of Base URL (such as ${EXAMPLE}).`;
		if (networkCode === 'ECONNREFUSED')
			return `Nothing accepts connections at ${host}. Check the port in Base URL (leave it out for the usual one) and that the service is running.`;
		// Plain http is advised only on this machine or a private network (the sandbox): elsewhere the same
		// answer may come from something between n8n and the service, and http would send the key in clear.
		if (/^https:/i.test(baseUrl) && (PLAIN_HTTP_ANSWER.test(networkCode) || PLAIN_HTTP_ANSWER.test(error.message)))
			return LOCAL_HOST.test(host)
				? `The service at ${host} speaks plain http, not https: write http://${host} in Base URL.`
				: `The secure (https) connection to ${host} failed: something answered that does not speak https. Check Base URL, and any proxy between n8n and the service.`;
		if (/CERT|SSL|TLS/.test(networkCode))
			return `The service at ${host} has a certificate n8n does not trust. Check that Base URL is the service's own address.`;
		return `Could not reach ${host}. Check Base URL and that n8n can reach the service on its network.`;
	}
	if (isLinkShortError(error, 'LINKSHORT_TIMEOUT')) return `${host} did not answer in time. Check Base URL and that n8n can reach the service on its network.`;
	return redact(error instanceof Error ? error.message : String(error));
}

/**
 * The credential test both nodes name in `testedBy`: the account's details read with the
 * credential, and a sentence saying what to fix when that fails.
 */
export async function linkShortApiTest(this: ICredentialTestFunctions, credential: ICredentialsDecrypted): Promise<INodeCredentialTestResult> {
	const baseUrl = String(credential.data?.baseUrl ?? '').trim();
	let client: LinkShortClient | undefined;
	try {
		client = new LinkShortClient({
			baseUrl,
			apiKey: String(credential.data?.apiKey ?? ''),
			transport: credentialTestTransport(this),
			sleep: async (ms) => await sleep(ms),
			userAgent: 'n8n-nodes-linkshort',
			maxRetries: 0,
			timeoutMs: 15_000,
			rateLimit: false,
		});
		await client.account.get();
		return { status: 'OK', message: 'Connection successful' };
	} catch (error) {
		// Without a client (its constructor refused the credential) no failure but that refusal reaches here.
		return { status: 'Error', message: advice(error, baseUrl, (text) => client?.redact(text) ?? text) };
	}
}
