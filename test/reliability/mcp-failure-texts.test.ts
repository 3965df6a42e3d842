/**
 * Tool error texts: built in linear time from capped text (a server's message can be megabytes and
 * crafted to make a backtracking regex spin), and pointing the model at the tool that can help.
 */
import { ApiError, ConnectionError, NotFoundError, PermissionError } from '@linkshort/client';
import { describeFailure } from '../../packages/mcp/src/failures/describe';

test('a not-found message that ends in a long run of dots and spaces before one more letter comes back capped', () => {
  const message = `Link not found${'. '.repeat(30_000)}x`;
  const text = describeFailure(new NotFoundError(message, 404, 1), 'get_link');
  expect(text.startsWith('Not found: Link not found. . ')).toBe(true);
  expect(text.length).toBeLessThan(800);
  expect(text).toMatch(/look the link up again with find_links\.$/);
});

test.each([
  [new NotFoundError('x'.repeat(1_000_000), 404, 1), 'get_link'],
  [new ApiError('y'.repeat(1_000_000), 400, 1), 'shorten_link'],
  [new PermissionError(`z${'\n'.repeat(500_000)}z.`, 403, 1), 'list_users'],
  [new ConnectionError(`Could not reach ${'w'.repeat(1_000_000)}`, false), 'get_account'],
])('a megabyte message (%#) becomes a short tool error', (error, tool) => {
  expect(describeFailure(error, tool).length).toBeLessThan(800);
});

test('not-found texts send the model to the tool that lists what it looked for', () => {
  const user = describeFailure(new NotFoundError('User not found.', 404, 1), 'get_user');
  expect(user).toBe('Not found: User not found. The id may be wrong or the item was deleted; look the user up again with list_users.');
  expect(describeFailure(new NotFoundError('Plan does not exist.', 404, 1), 'subscribe_user_to_plan')).toMatch(/list_users and list_plans\.$/);
  for (const tool of ['get_user', 'delete_user', 'subscribe_user_to_plan', 'create_qr_code']) {
    expect(describeFailure(new NotFoundError('Not found', 404, 1), tool)).not.toContain('find_links');
  }
  const domain = describeFailure(new NotFoundError('This domain does not exist or is not yours.', 400, 1), 'shorten_link');
  expect(domain).toMatch(/^Not found: This domain does not exist or is not yours\. Use a domain listed by list_domains/);
  expect(domain).not.toMatch(/id may be wrong/);
});
