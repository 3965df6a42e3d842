import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import { AbortedError, ResponseTooLargeError, TimeoutError, type Transport } from '@linkshort/client/core';

export type HttpContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** The credential type n8n signs the requests with. */
export const CREDENTIALS = 'linkShortApi';

interface ResponseStream {
	on(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
	on(event: 'end' | 'close', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
	destroy(error?: Error): unknown;
}

const isStream = (value: unknown): value is ResponseStream =>
	typeof value === 'object' && value !== null && typeof (value as ResponseStream).on === 'function' && typeof (value as ResponseStream).destroy === 'function';

function bodyText(raw: unknown): string {
	if (typeof raw === 'string') return raw;
	if (raw === undefined || raw === null) return '';
	if (raw instanceof Uint8Array) return new TextDecoder().decode(raw);
	return JSON.stringify(raw);
}

/**
 * The answer's body as text, read as it arrives: past `maxBodyBytes` (or a Content-Length above
 * it) the stream is destroyed, which closes the connection, and the read fails with
 * `ResponseTooLargeError`; `stop` (the request's deadline or the caller's abort) ends it with `stopped()`.
 */
function readCapped(body: unknown, status: number, declaredLength: unknown, maxBodyBytes: number, stop: AbortSignal, stopped: () => Error): Promise<string> {
	if (!isStream(body)) {
		// A host or a mock that hands the body over whole: the client checks its size.
		return Promise.resolve(bodyText(body));
	}
	const stream = body;
	if (Number(declaredLength) > maxBodyBytes) {
		stream.destroy();
		return Promise.reject(new ResponseTooLargeError(status, maxBodyBytes));
	}
	return new Promise<string>((resolve, reject) => {
		const chunks: Uint8Array[] = [];
		let size = 0;
		let settled = false;
		const finish = (error: Error | undefined, text?: string) => {
			if (settled) return;
			settled = true;
			stop.removeEventListener('abort', onStop);
			if (error) {
				stream.destroy();
				reject(error);
			} else resolve(text ?? '');
		};
		const onStop = () => finish(stopped());
		if (stop.aborted) return onStop();
		stop.addEventListener('abort', onStop, { once: true });
		stream.on('data', (chunk) => {
			if (settled) return;
			const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
			size += bytes.byteLength;
			if (size > maxBodyBytes) return finish(new ResponseTooLargeError(status, maxBodyBytes));
			chunks.push(bytes);
		});
		stream.on('end', () => {
			const whole = new Uint8Array(size);
			let offset = 0;
			for (const chunk of chunks) {
				whole.set(chunk, offset);
				offset += chunk.byteLength;
			}
			finish(undefined, new TextDecoder().decode(whole));
		});
		stream.on('error', (error) => finish(stop.aborted ? stopped() : error));
		// Closed without its end: the answer was cut off (the client classifies the code).
		stream.on('close', () =>
			finish(stop.aborted ? stopped() : Object.assign(new Error('The connection closed before the answer ended'), { code: 'ECONNRESET' })),
		);
	});
}

/** `promise`, or `stopped()` once `stop` aborts first; an answer that arrives after that has its body closed. */
function untilStopped<T extends { body?: unknown }>(promise: Promise<T>, stop: AbortSignal, stopped: () => Error): Promise<T> {
	if (stop.aborted) {
		void promise.then(
			(late) => isStream(late.body) && late.body.destroy(),
			() => undefined,
		);
		return Promise.reject(stopped());
	}
	return new Promise<T>((resolve, reject) => {
		let gaveUp = false;
		const onStop = () => {
			gaveUp = true;
			reject(stopped());
		};
		stop.addEventListener('abort', onStop, { once: true });
		promise.then(
			(value) => {
				stop.removeEventListener('abort', onStop);
				if (gaveUp && isStream(value.body)) value.body.destroy();
				resolve(value);
			},
			(error: unknown) => {
				stop.removeEventListener('abort', onStop);
				reject(stop.aborted ? stopped() : error);
			},
		);
	});
}

/**
 * Sends the client's requests through n8n's own HTTP helper, so that n8n adds the credential's
 * Authorization header (the client sends none: `transportAuthenticates`), honours proxies and logs
 * requests as it does for built-in nodes. Network failures are left to the client, which
 * classifies them by their error code.
 *
 * n8n's helper bounds only idle time (a byte every 500 ms keeps it reading), buffers the whole
 * answer, and replaces the request's abort signal with the execution's own. So the whole-request
 * deadline is kept here, from the request's start to the body's last byte (`AbortSignal.timeout`,
 * which also stops the helper where it honours the signal), and the body is read as a stream,
 * capped as it arrives.
 */
export function n8nTransport(context: HttpContext): Transport {
	return async ({ method, url, headers, body, timeoutMs, maxBodyBytes, signal }) => {
		const deadline = AbortSignal.timeout(timeoutMs);
		const stop = signal ? AbortSignal.any([signal, deadline]) : deadline;
		const stopped = () => (signal?.aborted ? new AbortedError() : new TimeoutError(timeoutMs));
		const options: IHttpRequestOptions = {
			method,
			url,
			headers,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			encoding: 'stream',
			json: false,
			timeout: timeoutMs,
			abortSignal: stop,
			...(body !== undefined ? { body } : {}),
		};
		const response = await untilStopped(
			context.helpers.httpRequestWithAuthentication.call(context, CREDENTIALS, options) as Promise<{ statusCode: number; headers: IDataObject; body: unknown }>,
			stop,
			stopped,
		);
		const responseHeaders: Record<string, string | string[] | undefined> = {};
		for (const [name, value] of Object.entries(response.headers ?? {})) {
			responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.map(String) : value === undefined ? undefined : String(value);
		}
		const text = await readCapped(response.body, response.statusCode, responseHeaders['content-length'], maxBodyBytes, stop, stopped);
		return { status: response.statusCode, headers: responseHeaders, body: text };
	};
}
