import type { IDataObject } from 'n8n-workflow';
import type { LinkShortClient } from '@linkshort/client/core';

export interface EventParameters {
	threshold: number;
	/** Watch only these links (threshold and click events); all links when empty. */
	linkIds: number[];
	/** Emit a link or QR code only once its clicks or scans grew by at least this much. */
	minimumNew: number;
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
	baseline(client: LinkShortClient, parameters: EventParameters): Promise<State>;
	/** Reads the server and returns what is new since `state`, and the next state; never changes `state`. */
	poll(client: LinkShortClient, state: State, parameters: EventParameters): Promise<{ items: IDataObject[]; state: State }>;
	sample(client: LinkShortClient, parameters: EventParameters): Promise<IDataObject[]>;
}
