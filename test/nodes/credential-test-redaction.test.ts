/**
 * The credential test shows n8n's user the message of a failure it has no advice for: that
 * message passes through the client's redaction, whatever produced it.
 */
import type { ICredentialTestFunctions } from 'n8n-workflow';
import { ApiError } from '@linkshort/client/core';
import { linkShortApiTest } from '../../nodes/nodes/shared/credentialTest';

const API_KEY = 'sk_live_9c4e1f7a2b3d4e5f6a7b8c9d';

/** A credential test context whose request helper fails with `error`. */
const failingWith = (error: unknown) => ({ helpers: { request: async () => await Promise.reject(error) } }) as unknown as ICredentialTestFunctions;

test("an unexpected failure's message comes back without the key, in any form the key takes", async () => {
  // A client error passes through the client unchanged: here one whose message holds the key raw and base64-encoded.
  const encoded = Buffer.from(`Bearer ${API_KEY}`).toString('base64');
  const error = new ApiError(`Gateway refused Authorization: Bearer ${API_KEY} (${encoded})`, 502);
  const answer = await linkShortApiTest.call(failingWith(error), {
    id: '1',
    name: 'LinkShort account',
    type: 'linkShortApi',
    data: { baseUrl: 'https://short.example.com', apiKey: API_KEY },
  });
  expect(answer.status).toBe('Error');
  expect(answer.message).toContain('Gateway refused Authorization: Bearer [redacted]');
  expect(answer.message).not.toContain(API_KEY);
  // Characters 12 to 36 of the base64 are made of the key's bytes alone (bytes 9 to 27 of "Bearer <key>").
  expect(answer.message).not.toContain(encoded.slice(12, 36));
});

test('a TLS answer that is no TLS advises http:// only for a local address: for a public host it names the failure, never sending the key in clear', async () => {
  const plainHttp = Object.assign(new Error('write EPROTO 40E7:error:0A00010B:SSL routines:ssl3_get_record:wrong version number'), { code: 'EPROTO' });
  const credential = (baseUrl: string) => ({ id: '1', name: 'LinkShort account', type: 'linkShortApi', data: { baseUrl, apiKey: API_KEY } });
  const publicHost = await linkShortApiTest.call(failingWith(plainHttp), credential('https://short.example.com'));
  expect(publicHost.message).toBe(
    'The secure (https) connection to short.example.com failed: something answered that does not speak https. Check Base URL, and any proxy between n8n and the service.',
  );
  const local = await linkShortApiTest.call(failingWith(plainHttp), credential('https://192.168.1.20:8787'));
  expect(local.message).toBe('The service at 192.168.1.20:8787 speaks plain http, not https: write http://192.168.1.20:8787 in Base URL.');
});
