import { sleep, type IExecuteFunctions, type ILoadOptionsFunctions } from 'n8n-workflow';
import { LinkIndex, type LinkShortClient } from '@linkshort/client/core';
import { accountFingerprint } from './client';

/**
 * The accounts whose link index this n8n process keeps (about 740 bytes a link): the least
 * recently used goes when another comes, so memory stays bounded however many credentials run.
 */
const MAX_ACCOUNTS = 8;

const indexes = new Map<string, LinkIndex>();
const watched = new WeakSet<LinkShortClient>();

/**
 * The link index of the credential's account, kept in this process (n8n's scanner forbids timers:
 * it advances only inside the calls that use it). Links the node creates, updates or deletes
 * through `client` land in it at once.
 */
export async function linkIndexFor(context: IExecuteFunctions | ILoadOptionsFunctions, client: LinkShortClient): Promise<LinkIndex> {
	const account = await accountFingerprint(context);
	let index = indexes.get(account);
	if (index) {
		indexes.delete(account);
	} else {
		index = new LinkIndex({ sleep: async (ms) => await sleep(ms) });
	}
	indexes.set(account, index);
	if (indexes.size > MAX_ACCOUNTS) indexes.delete(indexes.keys().next().value!);
	if (!watched.has(client)) {
		watched.add(client);
		index.watch(client);
	}
	return index;
}
