import type { IDataObject } from 'n8n-workflow';
import type { LinkShortClient } from '@linkshort/client/core';

export interface EventParameters {
	threshold: number;
	/** Watch only these links (threshold and click events); all links when empty. */
	linkIds: number[];
	/** Emit a link or QR code only once its clicks or scans grew by at least this much. */
	minimumNew: number;
	/** The workflow's time zone (IANA), checked: the digest's periods and hours are counted in it. */
	timeZone: string;
	/** Click Digest: the calendar period each digest covers, and the hour (0-23) it is sent after the period ends. */
	digest: { period: 'day' | 'week' | 'month'; hour: number };
	/** Click Rate: at least `clicks` within the last `minutes`; with `factor`, also that many times the link's rate of the day before. */
	rate: { clicks: number; minutes: number; factor: number | null };
	/** The n8n host's clock (milliseconds), never the server's. */
	now: () => number;
	/** Whether the poll has used its time and must send no more requests (it returns what it has). */
	timeUp: () => boolean;
	/** Tells the user something about the trigger's progress (n8n's log). */
	log: (message: string) => void;
}

/** One kind of event: how to start watching, how to poll, and a sample for "Fetch Test Event". */
export interface PollEvent<State extends IDataObject> {
	/** Whether a stored value is a state this event can go on from (static data can hold anything). */
	isState(value: unknown): value is State;
	/** Why a state of the right shape cannot be gone on from now (such as times stamped by a clock that ran ahead); undefined when it can. */
	unusable?(state: State, parameters: EventParameters): string | undefined;
	baseline(client: LinkShortClient, parameters: EventParameters): Promise<State>;
	/** Reads the server and returns what is new since `state`, and the next state; never changes `state`. */
	poll(client: LinkShortClient, state: State, parameters: EventParameters): Promise<{ items: IDataObject[]; state: State; charts?: PollChart[] }>;
	/** Items as the event emits them, made from the account as it stands (and the charts they carry, as a poll's). */
	sample(client: LinkShortClient, parameters: EventParameters): Promise<IDataObject[] | { items: IDataObject[]; charts: PollChart[] }>;
}

/** A PNG an event attaches to one of its items (by index), as the item's `chart` binary. */
export interface PollChart {
	item: number;
	png: Uint8Array;
	fileName: string;
}
