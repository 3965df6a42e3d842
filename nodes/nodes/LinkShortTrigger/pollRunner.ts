import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod/v4';
import { linkShortClient } from '../shared/client';
import { toNodeError } from '../shared/errors';
import { withDateOffsets } from '../shared/outputDates';
import { clickEventParameters } from './clickParameters';
import { EVENTS, type EventName } from './events';
import type { EventParameters, PollChart, PollEvent } from './event';
import { STOPPED, unlessStopped } from './reading/pageReader';
import { idSchema, matches } from './reading/storedShapes';

/** How versions before the client's account rule recorded the account: a digest alone. */
const LEGACY_ACCOUNT_DIGEST = /^[0-9a-f]{32}$/;

/**
 * How long a poll keeps other polls of the same node away. n8n starts a poll on schedule even
 * while the previous one still runs (a poll waiting out the rate limit easily outlasts a
 * one-minute interval), and both get the same static-data object. A poll that finds a live lease
 * returns at once, without a request; the running one covers what it would have found. A lease
 * older than this (a poll that hung, or one stored by a process that stopped) no longer counts.
 */
const LEASE_MS = 5 * 60_000;

/**
 * How long a poll may take when n8n does not say; also what n8n's legacy poller says, and it
 * abandons no poll: only a shorter budget (the durable scheduler's) drops a late poll's reading.
 */
const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;
/**
 * What a poll keeps of its budget after its last request, to work out and keep its state. Every
 * request of a poll ends by then (the client's `deadline`, retries included): a late slow answer
 * ends the poll's reading where it is instead of carrying the poll past its budget.
 */
const WRAP_UP_MS = 1_000;

const leaseSchema = z.object({ token: z.string(), until: z.number() });
type Lease = z.infer<typeof leaseSchema>;
const isLease = matches(leaseSchema);

/** How many polls of this node committed (see `pollEvent`). */
const isGeneration = matches(idSchema);

/** Link IDs as a list (the picker), a comma-separated string (workflows made before it), or one number. */
function parseLinkIds(value: unknown): number[] | undefined {
	const parts = (Array.isArray(value) ? value : typeof value === 'number' ? [value] : String(value ?? '').split(','))
		.map((part) => String(part).trim())
		.filter(Boolean);
	if (parts.some((part) => !/^[1-9]\d*$/.test(part))) return undefined;
	return [...new Set(parts.map(Number))].sort((a, b) => a - b);
}

const cloned = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * One poll. In manual mode ("Fetch Test Event") a sample, with the state untouched; on first
 * activation (or after the event, its settings or the credential's account change) a baseline and
 * nothing emitted; then the items since the last poll.
 *
 * The state is replaced in one step after the last request, so whatever n8n saves in between
 * (it saves the workflow's whole static data when any of its triggers emits) is consistent. A poll
 * commits only if no other poll of this node committed since it started (`generation`): when two
 * polls did overlap (the lease ran out), the first to finish emits and moves the state on, and the
 * other emits nothing and leaves that state alone; the next poll starts from it. Nothing is emitted
 * twice, nothing lost, whatever order they finish in. A failed poll changes nothing; so does a poll
 * that finishes past the budget n8n's durable scheduler gives it (n8n may have abandoned it and
 * repeats the same place). A spent rate limit ends a poll early: it keeps what it read (the scans
 * move their place on) and the next poll goes on.
 *
 * Static data that no version of this node writes (edited by hand, a lease stamped by a clock that
 * ran ahead, a counter that is not a number, a state of the wrong shape, or one its event cannot go
 * on from, such as times ahead of the host's clock) is repaired, with a log line: a bad lease or
 * counter is dropped, a bad state gives way to a new baseline.
 */
async function pollEvent(
	this: IPollFunctions,
	eventName: EventName,
	parameters: EventParameters,
	abandonedAt: number,
	requestsEndBy: number,
): Promise<INodeExecutionData[][] | null> {
	const event = EVENTS[eventName] as PollEvent<IDataObject> | undefined;
	if (!event) throw new NodeOperationError(this.getNode(), `Event: "${eventName}" is not a known event`);
	const client = await linkShortClient(this, this.getMode() === 'manual' ? undefined : requestsEndBy);
	const timeZone = this.getTimezone();
	const emit = async (items: IDataObject[], charts: PollChart[] = []) => {
		if (items.length === 0) return null;
		const output = this.helpers.returnJsonArray(withDateOffsets(items, timeZone));
		for (const chart of charts)
			output[chart.item]!.binary = { chart: await this.helpers.prepareBinaryData(Buffer.from(chart.png), chart.fileName, 'image/png') };
		return [output];
	};

	if (this.getMode() === 'manual') {
		const sampled = await event.sample(client, parameters);
		return Array.isArray(sampled) ? await emit(sampled) : await emit(sampled.items, sampled.charts);
	}
	if (parameters.now() >= requestsEndBy) {
		this.logger.warn(`LinkShort Trigger "${this.getNode().name}": n8n gives this poll too little time to read anything; it stops and the next poll goes on`);
		return null;
	}

	const staticData = this.getWorkflowStaticData('node');
	const startedAt = parameters.now();
	const repaired = (what: string) => this.logger.warn(`LinkShort Trigger "${this.getNode().name}": ${what}; repaired`);
	const lease = staticData.lease;
	if (lease !== undefined) {
		if (!isLease(lease)) repaired('the stored lease is not a lease');
		else if (lease.until > startedAt + LEASE_MS) repaired('the stored lease ends further ahead than a lease lasts (a clock ran ahead)');
		else if (lease.until > startedAt) return null;
	}
	const token = `${startedAt}-${Math.random().toString(36).slice(2)}`;
	staticData.lease = { token, until: startedAt + LEASE_MS };
	if (staticData.generation !== undefined && !isGeneration(staticData.generation)) {
		repaired('the stored generation is not a whole number');
		staticData.generation = 0;
	}
	const generation = (staticData.generation as number | undefined) ?? 0;
	// Settings that change what the state means start a new baseline (the click counts of links no
	// longer watched are not kept, so watching them again must not count all their clicks as new).
	const settings =
		eventName === 'linkClickThreshold'
			? { threshold: parameters.threshold, linkIds: parameters.linkIds }
			: eventName === 'newLinkClicks' && parameters.linkIds.length > 0
				? { linkIds: parameters.linkIds }
				: {};
	const key = JSON.stringify({ event: eventName, ...settings });
	// Another account's ids and counts mean nothing here: its state would replay or hide events. A
	// state kept before accounts were recorded, or under the digest earlier versions recorded (32 hex
	// digits), is taken to be this account's and recorded anew.
	const account = client.accountId;
	const sameAccount = staticData.account === undefined || staticData.account === account || LEGACY_ACCOUNT_DIGEST.test(String(staticData.account));
	try {
		let goesOn = sameAccount && staticData.key === key && staticData.state !== undefined;
		if (goesOn && !event.isState(staticData.state)) {
			repaired('the stored state is not one this event keeps, so a new baseline is taken');
			goesOn = false;
		}
		const unusable = goesOn ? event.unusable?.(staticData.state as IDataObject, parameters) : undefined;
		if (unusable !== undefined) {
			repaired(`the stored state ${unusable}, so a new baseline is taken`);
			goesOn = false;
		}
		const outcome = await unlessStopped(
			goesOn
				? event.poll(client, cloned(staticData.state as IDataObject), parameters)
				: event.baseline(client, parameters).then((state) => ({ items: [], state })),
		);
		if (outcome === STOPPED) {
			// Requests never wait for the key's rate limit inside a poll, nor outlast its budget: a spent
			// window or the poll's deadline on its first request ends this one with its state unchanged
			// (the scans keep what they read before it), and the next goes on.
			parameters.log("the API key's rate limit is spent or the poll's time is up; this poll stops and the next one goes on");
			return null;
		}
		if ((isGeneration(staticData.generation) ? staticData.generation : 0) !== generation) return null;
		// Past its budget n8n may have abandoned this poll and handed its state to the next one:
		// what it found is left for that poll to find again, so nothing is emitted twice or lost.
		if (parameters.now() >= abandonedAt) {
			this.logger.warn(`LinkShort Trigger "${this.getNode().name}": the poll ran past n8n's poll budget; its reading is dropped and the next poll reads again`);
			return null;
		}
		staticData.key = key;
		staticData.account = account;
		staticData.state = outcome.state;
		staticData.generation = generation + 1;
		return await emit(outcome.items, outcome.charts);
	} finally {
		if ((staticData.lease as Lease | undefined)?.token === token) delete staticData.lease;
	}
}

/**
 * A poll of the trigger, as n8n calls it: the event's parameters read and checked (field-named
 * errors), the poll's budget and deadline from n8n's, then `pollEvent`; every failure as a node error.
 */
export async function runPoll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const eventName = this.getNodeParameter('event') as EventName;
	const watchesLinks = eventName === 'linkClickThreshold' || eventName === 'newLinkClicks' || eventName === 'linkClickRate';
	const linkIds = watchesLinks ? parseLinkIds(this.getNodeParameter('linkIds', [])) : [];
	if (!linkIds)
		throw new NodeOperationError(this.getNode(), 'Link Names or IDs: must be link IDs (whole numbers), chosen from the list or separated by commas');
	const wholeAtLeastOne = (name: string, label: string, fallback: number) => {
		const value = Number(this.getNodeParameter(name, fallback));
		if (!(Number.isInteger(value) && value >= 1)) throw new NodeOperationError(this.getNode(), `${label}: must be a whole number of at least 1`);
		return value;
	};
	const threshold = eventName === 'linkClickThreshold' ? wholeAtLeastOne('threshold', 'Threshold', 100) : 100;
	const minimumNew =
		eventName === 'newLinkClicks'
			? wholeAtLeastOne('minimumNewClicks', 'Minimum New Clicks', 1)
			: eventName === 'newQrScans'
				? wholeAtLeastOne('minimumNewScans', 'Minimum New Scans', 1)
				: 1;
	const clickEvents = clickEventParameters(this, eventName);
	const now = () => Date.now();
	const startedAt = now();
	// n8n's durable scheduler abandons a poll past its timeout; n8n 2.41 says how long this one may take.
	const budgetMs = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : DEFAULT_POLL_BUDGET_MS;
	const log = (message: string) => this.logger.info(`LinkShort Trigger "${this.getNode().name}": ${message}`);
	try {
		return await pollEvent.call(
			this,
			eventName,
			{
				threshold,
				linkIds,
				minimumNew,
				...clickEvents,
				now,
				timeUp: () => now() - startedAt >= budgetMs / 2,
				log,
			},
			budgetMs < DEFAULT_POLL_BUDGET_MS ? startedAt + budgetMs : Number.POSITIVE_INFINITY,
			startedAt + budgetMs - WRAP_UP_MS,
		);
	} catch (error) {
		throw toNodeError(this.getNode(), error);
	}
}
