import { sleep } from 'n8n-workflow';
import { LinkIndexRegistry, type LinkIndex, type LinkShortClient } from '@linkshort/client/core';

/** The link indexes this n8n process keeps: one per account, at most the client's bound of them. */
const registry = new LinkIndexRegistry();

/**
 * The link index of the client's account, kept in this process (n8n's scanner forbids timers: it
 * advances only inside the calls that use it). Links the node creates, updates or deletes through
 * `client` land in it at once.
 */
export function linkIndexFor(client: LinkShortClient): LinkIndex {
	return registry.indexFor(client, { sleep: async (ms) => await sleep(ms) });
}
