import type { IDataObject } from 'n8n-workflow';
import { LARGE_PAGE_SIZE, type LinkShortClient } from '@linkshort/client/core';
import type { EventParameters, PollEvent } from '../event';
import { readShare } from '../reading/newItemsRead';
import type { Dated, ListOf } from '../reading/share';
import { emitFrom } from '../reading/newItemsEmit';
import { followClock } from '../reading/stepBack';
import { countedResult } from '../reading/itemCount';
import { isNewItemsState, upgraded, type NewItemsState } from '../reading/newItemsState';
import { LINK_PAGE, linkPages, QR_PAGE, qrPages } from '../reading/lists';

/**
 * One poll of a new-items event: the next share of the read (see PendingRead). A share that ends
 * the read sets the state as a whole read does; one that reaches its floor part way emits its new
 * items and starts the next cycle; one that does not reach it notes where it stopped.
 */
async function pollNewItems<T extends Dated>(
	list: ListOf<T>,
	state: NewItemsState,
	parameters: EventParameters,
): Promise<{ fresh: T[]; state: NewItemsState }> {
	const startedAt = parameters.now();
	const share = await readShare(list, state, state.reading, parameters, startedAt);
	const result = followClock(emitFrom(share, state, parameters, startedAt), share, state, parameters.now());
	return await countedResult(list.read, result, state, share, parameters);
}

function newItemsEvent<T extends Dated>(listOf: (client: LinkShortClient) => ListOf<T>, describe: (item: T) => IDataObject): PollEvent<NewItemsState> {
	return {
		isState: isNewItemsState,

		async baseline(client, parameters) {
			const start: NewItemsState = {
				floorId: 0,
				known: [],
				top: null,
				topSeenAt: 0,
				topSettled: false,
				pages: 0,
				deepTop: null,
				deepReadAt: 0,
				reading: {
					floor: null,
					offset: 0,
					size: 0,
					deep: true,
					baseline: true,
					startedAt: parameters.now(),
					maxId: 0,
					climbing: false,
					run: null,
					cap: LARGE_PAGE_SIZE,
				},
			};
			return (await pollNewItems(listOf(client), start, parameters)).state;
		},

		async poll(client, stored, parameters) {
			const { fresh, state } = await pollNewItems(listOf(client), upgraded(stored), parameters);
			return { items: fresh.map(describe), state };
		},

		async sample(client) {
			const list = listOf(client);
			const first = await list.read(1, list.pageSize);
			return first.items.slice(0, 1).map(describe);
		},
	};
}

export const newLink = newItemsEvent(
	(client) => ({ read: linkPages(client), pageSize: LINK_PAGE }),
	(link): IDataObject => ({ ...link, summary: `New short link ${link.shorturl} -> ${link.longurl}` }),
);
export const newQrCode = newItemsEvent(
	(client) => ({ read: qrPages(client), pageSize: QR_PAGE }),
	(qr): IDataObject => ({ ...qr, summary: `New QR code "${qr.name}" -> ${qr.link}` }),
);
