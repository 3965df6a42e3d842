/**
 * Each front end is bundled with its own copy of the client (every n8n node package, the Raycast
 * extension, the MCP server), and a copy meets errors of another: a transport, a shared module, a
 * second node package in the same n8n. Front-end code loaded here with a copy of the client of its
 * own must read the errors of this file's copy as what they are.
 */
import type { INode } from 'n8n-workflow';
import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseError,
  TimeoutError,
  ValidationError,
} from '@linkshort/client';

type FrontEnds = {
  failure: typeof import('../../raycast-extension/src/ui/failure');
  mcpFailures: typeof import('../../packages/mcp/src/failures/describe');
  nodeErrors: typeof import('../../nodes/nodes/shared/errors');
  pageReader: typeof import('../../nodes/nodes/LinkShortTrigger/reading/pageReader');
  ownClient: typeof import('@linkshort/client');
};
let frontEnds: FrontEnds;
beforeAll(async () => {
  await jest.isolateModulesAsync(async () => {
    frontEnds = {
      failure: await import('../../raycast-extension/src/ui/failure'),
      mcpFailures: await import('../../packages/mcp/src/failures/describe'),
      nodeErrors: await import('../../nodes/nodes/shared/errors'),
      pageReader: await import('../../nodes/nodes/LinkShortTrigger/reading/pageReader'),
      ownClient: await import('@linkshort/client'),
    };
  });
});

const node: INode = { id: '1', name: 'LinkShort', type: 'n8n-nodes-linkshort.linkShort', typeVersion: 1, position: [0, 0], parameters: {} };

test('the front ends were loaded with a copy of the client of their own', () => {
  expect(new RateLimitError('slow', 429, undefined, undefined)).not.toBeInstanceOf(frontEnds.ownClient.RateLimitError);
});

test('Raycast: a refused key asks for the preferences, a lost connection or a limit for a retry', () => {
  const { failureKind, failureHint } = frontEnds.failure;
  expect(failureKind(new AuthenticationError('A valid API key is required.', 401))).toBe('settings');
  expect(failureKind(new ResponseError('The server sent an HTML page instead of JSON (HTTP 404)', 404, '<html>'))).toBe('settings');
  expect(failureKind(new ConnectionError('Could not reach the server', false, 'ECONNREFUSED'))).toBe('transient');
  expect(failureKind(new TimeoutError(1_000))).toBe('transient');
  expect(failureHint(new RateLimitError('slow', 429, 1_000, undefined))).toBe('the service asks to wait, try again shortly');
  expect(failureKind(new ValidationError([{ field: 'url', message: 'must be a valid http or https URL' }]))).toBe('input');
});

test('MCP: each failure is the text a model can act on', () => {
  const { describeFailure } = frontEnds.mcpFailures;
  expect(describeFailure(new ValidationError([{ field: 'url', message: 'must be a valid http or https URL' }]), 'shorten_link')).toBe(
    'Invalid arguments for shorten_link: url: must be a valid http or https URL. Correct these fields and call shorten_link again.',
  );
  expect(describeFailure(new RateLimitError('slow', 429, 5_000, undefined), 'get_link', 0)).toBe(
    'Rate limited by the LinkShort server, retry after 5 s. Nothing was changed by this call.',
  );
  expect(describeFailure(new NotFoundError('User not found.', 404), 'get_user')).toBe(
    'Not found: User not found. The id may be wrong or the item was deleted; look the user up again with list_users.',
  );
  expect(describeFailure(new PermissionError('Admins only.', 403), 'list_users')).toMatch(/^Not permitted: Admins only\./);
  expect(describeFailure(new ApiError('That alias is taken.', 200), 'shorten_link')).toBe('The LinkShort server refused the request: That alias is taken.');
});

test("n8n: a refusal by the service is n8n's API error with its status, bad input names the field as the node shows it", () => {
  const { toNodeError } = frontEnds.nodeErrors;
  const refused = toNodeError(node, new PermissionError('You do not have permission to access this endpoint.', 403), 0);
  expect(refused.constructor.name).toBe('NodeApiError');
  expect(refused).toMatchObject({ httpCode: '403', message: 'You do not have permission to access this endpoint.' });
  const unreadable = toNodeError(node, new ResponseError('The server sent an HTML page instead of JSON (HTTP 502)', 502, '<html>Bad gateway'), 0);
  expect(unreadable).toMatchObject({ httpCode: '502', description: 'The server answered: <html>Bad gateway' });
  const invalid = toNodeError(node, new ValidationError([{ field: 'url', message: 'must be a valid http or https URL' }]), 0, (field) =>
    field === 'url' ? 'Long URL' : field,
  );
  expect(invalid.constructor.name).toBe('NodeOperationError');
  expect(invalid.message).toBe('Long URL: must be a valid http or https URL');
});

test("n8n trigger: a spent rate limit or the poll's deadline stops the poll's reading instead of failing it", async () => {
  const { unlessStopped, STOPPED } = frontEnds.pageReader;
  await expect(unlessStopped(Promise.reject(new RateLimitError('slow', 429, 1_000, undefined)))).resolves.toBe(STOPPED);
  await expect(unlessStopped(Promise.reject(new TimeoutError(1_000, true)))).resolves.toBe(STOPPED);
  await expect(unlessStopped(Promise.reject(new TimeoutError(1_000, false)))).rejects.toMatchObject({ code: 'LINKSHORT_TIMEOUT' });
});
