import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';
import { PagePromise } from '@linkshort/client/core';
import { linkShortClient } from '../../shared/client';
import { linkIndexFor } from '../../shared/accountIndexes';

/** With a search text, one call reads pages until it has this many matches (or MAX_PAGES_PER_CALL pages). */
const MATCHES_PER_CALL = 20;
/** One page a call: typing a filter must not spend the key's limit; scrolling reads on. */
const MAX_PAGES_PER_CALL = 1;
const PAGE_SIZE = 100;

/**
 * One call of n8n's "From list": the API's page named by `paginationToken` (the first when none)
 * and, while searching, the next ones until enough match. The token n8n hands back is the next
 * page's number; there is none after the last page. Pages are walked by the client's own rule.
 */
async function searchPages<T>(
	list: (page: number) => PagePromise<T>,
	filter: string | undefined,
	paginationToken: string | undefined,
	texts: (item: T) => Array<string | undefined>,
	toResult: (item: T) => INodeListSearchItems,
): Promise<INodeListSearchResult> {
	const needle = (filter ?? '').trim().toLowerCase();
	const start = Number(paginationToken) >= 1 ? Number(paginationToken) : 1;
	const results: INodeListSearchItems[] = [];
	let requested = start;
	let read = 0;
	for await (const page of list(start).pages()) {
		read += 1;
		for (const item of page.items) {
			if (!needle || texts(item).some((text) => text?.toLowerCase().includes(needle))) results.push(toResult(item));
		}
		if (PagePromise.isLastPage(page, requested)) return { results };
		requested = page.currentpage + 1;
		if (!needle || results.length >= MATCHES_PER_CALL || read >= MAX_PAGES_PER_CALL) break;
	}
	return { results, paginationToken: String(requested) };
}

/** Results one call of the links list shows; scrolling asks for the next ones. */
const LINKS_PER_CALL = 50;

/**
 * Links from the account's link index, searched by alias, short URL in any form, long URL, title
 * and description: typing spends no request (a sync reads the newest links at most every 10 s).
 * While the first sweep of the account is under way, opening the list and scrolling it read the
 * next pages of the sweep, within its share of the rate limit.
 */
export async function searchLinks(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const client = await linkShortClient(this);
	const index = linkIndexFor(client);
	const offset = Number(paginationToken) >= 0 ? Number(paginationToken) : 0;
	const typing = (filter ?? '').trim() !== '' && paginationToken === undefined;
	await index.sync(client, { maxSweepPages: typing && index.freshness().known > 0 ? 0 : paginationToken === undefined ? 1 : 3 });
	const { links, matches, freshness } = index.search(filter ?? '', offset + LINKS_PER_CALL);
	const results = links.slice(offset).map((link) => ({
		name: link.title ? `${link.shorturl} (${link.title})` : `${link.shorturl} → ${link.longurl}`,
		value: String(link.id),
		url: link.shorturl,
	}));
	const more = matches > offset + results.length || !freshness.complete;
	return more ? { results, paginationToken: String(offset + results.length) } : { results };
}

export async function searchQrCodes(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const client = await linkShortClient(this);
	return await searchPages(
		(page) => client.qrCodes.list({ limit: PAGE_SIZE, page }),
		filter,
		paginationToken,
		(qr) => [qr.name, qr.link],
		(qr) => ({ name: qr.name ? `${qr.name} (${qr.link})` : qr.link, value: String(qr.id), url: qr.link }),
	);
}

export async function searchDomains(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const client = await linkShortClient(this);
	return await searchPages(
		(page) => client.domains.list({ limit: PAGE_SIZE, page }),
		filter,
		paginationToken,
		(domain) => [domain.domain],
		(domain) => ({ name: domain.domain, value: String(domain.id), url: domain.domain }),
	);
}

export async function searchPixels(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const client = await linkShortClient(this);
	return await searchPages(
		(page) => client.pixels.list({ limit: PAGE_SIZE, page }),
		filter,
		paginationToken,
		(pixel) => [pixel.name, pixel.tag, pixel.type],
		(pixel) => ({ name: `${pixel.name} (${pixel.type}, ${pixel.tag})`, value: String(pixel.id) }),
	);
}

export async function searchUsers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const client = await linkShortClient(this);
	return await searchPages(
		() => client.users.list(),
		filter,
		paginationToken,
		(user) => [user.username, user.email],
		(user) => ({ name: `${user.username} <${user.email}>`, value: String(user.id) }),
	);
}

export async function searchPlans(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const client = await linkShortClient(this);
	return await searchPages(
		() => client.plans.list(),
		filter,
		paginationToken,
		(plan) => [plan.name],
		(plan) => ({ name: plan.name, value: String(plan.id) }),
	);
}
