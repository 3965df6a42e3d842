import { LARGE_PAGE_SIZE, PagePromise, type Page } from '@linkshort/client/core';
import type { EventParameters } from '../event';
import type { Floor, NewItemsState, PendingRead } from './newItemsState';
import { STOPPED, unlessStopped } from './pageReader';
import { SCAN_PAGES_PER_POLL } from './scan';
import { readSplitRuns, type Answered, type BrokenRun } from './splitRuns';
import { farthestFloor, readBand, type Band } from './floorBand';
import { nextWindow } from './windows';
import { endPlacesAbove, readRunEnds } from './runEnds';
import { CLOCK_STEP_MS, HIDDEN_WINDOW_MS, SWEEP_EVERY_MS, dateBefore, dateOf, earlier, type Dated } from './clockSteps';
import { below, newestDate, shareOf, type ListOf, type ReadSoFar, type Share } from './share';

/**
 * Reads newest-first pages from where `pending` stands (or from the top), as deep as `state` requires (see NewItemsState), at most
 * `SCAN_PAGES_PER_POLL` requests. A fresh shallow read asks for a page of the usual size first (a quiet poll reads only that), and for
 * large pages from then on; others ask large pages from the start. When that first page shows more new than a poll reads, and a climbing
 * cycle always, the share is a band read up from the floor (floorBand.ts). A spent rate limit ends the share where it is.
 */
export async function readShare<T extends Dated>(
	list: ListOf<T>,
	state: NewItemsState,
	pending: PendingRead | null,
	parameters: EventParameters,
	startedAt: number,
): Promise<Share<T>> {
	return await new ShareRead(list, state, pending, parameters, startedAt).read();
}

/** One poll's read: where it stands as its pages come in (the steps of `readShare`). */
class ShareRead<T extends Dated> implements ReadSoFar<T> {
	readonly #known: Set<number>;
	readonly #fresh: boolean;
	readonly longRunDate: string | null;
	deep: boolean;
	whole: boolean;
	readonly clockTop: string | null;
	readonly stepFloor: string | null;
	floor: Floor | null;
	readonly floorFixed: boolean;
	size: number;
	offset: number;
	startOffset: number;
	descending: boolean;
	cap: number;
	ask: number | 'large';
	readonly seen = new Map<number, T>();
	readonly answers: Array<Answered<T>> = [];
	readonly endAnswers: Array<Answered<T>> = [];
	reachedEnd: number;
	requests = 0;
	splitRequests = 0;
	grounded = false;
	stoppedAtFloor = false;
	pages: number | undefined;
	created = 0;
	listEnd: number | undefined;
	last: T | undefined;
	/** The long run being counted (PendingRead.run), and the places of its ends the pages may not reach. */
	readonly run: NonNullable<PendingRead['run']> | null;
	readonly counting: boolean;
	readonly endReads: number[];
	firstPage: Answered<T> | undefined;
	fromBand = false;
	stalled = false;
	broken: BrokenRun | undefined;

	constructor(
		private readonly list: ListOf<T>,
		private readonly state: NewItemsState,
		private readonly pending: PendingRead | null,
		private readonly parameters: EventParameters,
		startedAt: number,
	) {
		this.#known = new Set(state.known);
		this.#fresh = pending === null;
		this.longRunDate = pending?.run?.long ? pending.run.date : null;
		this.deep =
			pending?.deep ??
			(startedAt - state.deepReadAt >= SWEEP_EVERY_MS && state.deepReadAt < Math.max(state.topSeenAt, state.frontSeenAt ?? 0) + HIDDEN_WINDOW_MS);
		this.whole = pending?.whole === true;
		// Below the server's clock where it stepped back further than an hour (NewItemsState.front), else below the top.
		this.clockTop = earlier(earlier(state.deepTop, state.top), state.front ?? null);
		this.stepFloor = this.clockTop === null ? null : dateBefore(this.clockTop, CLOCK_STEP_MS);
		this.floor = pending && pending.offset > 0 ? pending.floor : (pending?.floor ?? (this.deep ? null : this.#shallowFloor()));
		this.floorFixed = pending !== null && (pending.offset > 0 || pending.floor !== null);
		// A cycle that goes on reads again the last page it read: it then starts below the floor only if more than a page was deleted above it.
		this.size = pending && pending.offset > 0 ? pending.size : 0;
		this.offset = pending && pending.offset > 0 ? Math.max(0, pending.offset - this.size) : 0;
		this.startOffset = this.offset;
		this.reachedEnd = this.startOffset;
		this.descending = pending !== null && pending.offset > 0 && !pending.climbing;
		this.cap = pending?.cap ?? state.cap ?? LARGE_PAGE_SIZE;
		this.ask = this.size > 0 ? this.size : this.#fresh && !this.deep ? list.pageSize : 'large';
		// A long run is counted by polls that see both its ends: the requests to look at an end the pages may not reach.
		this.run = this.longRunDate === null ? null : pending!.run!;
		this.counting = this.run !== null && (this.run.places == null || this.run.recount === true);
		this.endReads = this.counting ? endPlacesAbove(this.run!, this.startOffset) : [];
	}

	async read(): Promise<Share<T>> {
		if (this.pending?.from != null && this.pending.upward !== false) {
			// A climbing cycle reads up from the floor (see floorBand.ts).
			const band = await readBand(
				this.list.read,
				this.pending.from,
				this.cap,
				SCAN_PAGES_PER_POLL - this.endReads.length,
				this.#isBelowFloor,
				this.parameters.timeUp,
				0,
			);
			if (!this.#takeBand(band) && band.answers.length === 0 && band.requests > 0) this.ask = this.cap;
		}
		await this.#readPages();
		await this.#readRunEnds();
		if (this.grounded) await this.#readSplitRuns();
		return shareOf(this);
	}

	#isNew = (item: T) => item.id > this.state.floorId && !this.#known.has(item.id);
	#isBelowFloor = (item: T) => below(item, this.floor);

	#shallowFloor(): Floor | null {
		return this.state.top === null ? null : { date: this.state.top, inclusive: this.state.topSettled };
	}

	#deepFloor(newest: string | null): Floor | null {
		if (this.whole) return null;
		const from = this.pending?.baseline ? newest : this.clockTop;
		const date = from === null ? null : dateBefore(from, CLOCK_STEP_MS);
		return date === null ? null : { date, inclusive: false };
	}

	/** Reads deep from here on: an hour below the top, or to the end of the list when a new item already shows below that hour. */
	#goDeep(alsoSeen: T[] = []): void {
		this.deep = true;
		this.floor = this.#deepFloor(newestDate([...this.seen.values()], null));
		const stepFloor = this.stepFloor;
		if (stepFloor !== null && [...this.seen.values(), ...alsoSeen].some((item) => this.#isNew(item) && dateOf(item) < stepFloor)) {
			this.whole = true;
			this.floor = null;
		}
	}

	/** Takes `band` as the share's pages; true when it reaches the floor, else the share goes on down from its lowest page. */
	#takeBand(band: Band<T>): boolean {
		this.requests += band.requests;
		this.fromBand = band.answers.length > 0;
		this.stalled = band.stalled;
		if (band.firstPage) this.pages = this.#pagesOf(band.firstPage);
		const lowest = band.answers[band.answers.length - 1];
		if (lowest === undefined) return false;
		this.answers.splice(0, this.answers.length, ...band.answers);
		this.seen.clear();
		for (const { items } of this.answers) for (const item of items) if (!this.seen.has(item.id)) this.seen.set(item.id, item);
		this.startOffset = this.answers[0]!.start;
		this.reachedEnd = lowest.start + lowest.items.length;
		this.last = lowest.items[lowest.items.length - 1];
		this.size = this.cap;
		this.grounded = this.stoppedAtFloor = band.grounded;
		// Else the floor lies further down (older items were deleted): whole pages down to it from here.
		this.descending = true;
		this.offset = this.reachedEnd;
		this.ask = this.cap;
		return this.grounded;
	}

	async #readPages(): Promise<void> {
		while (!this.grounded && this.requests < SCAN_PAGES_PER_POLL - this.endReads.length && !(this.requests > 0 && this.parameters.timeUp())) {
			const ask = this.ask;
			const page = ask === 'large' ? 1 : Math.floor(this.offset / ask) + 1;
			// A spent rate limit before any page fails the poll as a whole (its state stays); after, the share ends where it is.
			const answer = this.requests === 0 ? await this.list.read(page, ask) : await unlessStopped(this.list.read(page, ask));
			if (answer === STOPPED) break;
			if ((await this.#readPage(answer, page, ask)) === 'stop') break;
		}
	}

	/** Takes one page of the read down: 'stop' when the share ends with it. */
	async #readPage(answer: Page<T>, page: number, ask: number | 'large'): Promise<'stop' | 'next'> {
		this.requests += 1;
		const granted = PagePromise.sizeGiven(answer);
		if (granted < (ask === 'large' ? LARGE_PAGE_SIZE : ask)) this.cap = Math.min(this.cap, granted);
		// A server that now gives larger pages than the read remembered.
		if (ask === 'large' && granted > this.cap) this.cap = granted;
		this.size = granted;
		for (const item of answer.items) if (!this.seen.has(item.id)) this.seen.set(item.id, item);
		const endsList = PagePromise.isLastPage(answer, page);
		this.answers.push({ start: (page - 1) * granted, items: answer.items, endsList });
		if (page === 1) this.pages = this.#pagesOf(answer);
		if (endsList && answer.items.length > 0 && answer.currentpage === page) this.listEnd = (page - 1) * granted + answer.items.length;
		// The page count grew: at least this many items were created since (deletions only hide more).
		if (page === 1 && granted === this.list.pageSize && this.state.pages > 0 && this.pages! > this.state.pages)
			this.created = (this.pages! - this.state.pages - 1) * this.list.pageSize + 1;
		const pageLast = answer.items[answer.items.length - 1];
		if (!this.floorFixed && this.floor === null && this.deep) this.floor = this.#deepFloor(newestDate([...this.seen.values()], null));
		if (!this.floorFixed && !this.deep && this.#stepSuspected()) this.#goDeep();
		if (pageLast === undefined || endsList) {
			this.grounded = true;
			if (pageLast !== undefined) this.last = pageLast;
			return 'stop';
		}
		this.last = pageLast;
		if (below(pageLast, this.floor)) {
			this.grounded = true;
			this.stoppedAtFloor = true;
			return 'stop';
		}
		this.reachedEnd = Math.max(this.reachedEnd, (page - 1) * granted + answer.items.length);
		const farthest =
			this.#fresh && !this.deep && page === 1 && this.requests === 1 && this.floor !== null
				? farthestFloor(answer, this.state.pages, this.list.pageSize, this.cap, SCAN_PAGES_PER_POLL - this.requests)
				: undefined;
		if (farthest !== undefined) {
			const taken = await this.#readBandAbove(answer, farthest);
			if (taken !== undefined) return taken;
		}
		// A counted long run whose ids have all been seen needs no more pages.
		const run = this.run;
		if (
			run?.places != null &&
			!this.counting &&
			new Set([...run.ids, ...[...this.seen.values()].filter((item) => dateOf(item) === this.longRunDate).map((item) => item.id)]).size >= run.places
		)
			return 'stop';
		if (this.descending) {
			// Finding the bottom emits nothing, so runs split here do not matter: whole pages, each further down.
			this.offset = (page - 1) * granted + answer.items.length;
			this.ask = granted;
		} else {
			const next = nextWindow((page - 1) * granted, answer.items, this.cap);
			this.offset = next.offset;
			this.ask = next.size;
		}
		return 'next';
	}

	/**
	 * More than a poll reads is new: the share is the band up from the floor instead (see floorBand.ts); the first page is the next cycles'.
	 * Undefined when the read goes on down from the first page as usual.
	 */
	async #readBandAbove(answer: Page<T>, farthest: number): Promise<'stop' | 'next' | undefined> {
		const band = await readBand(
			this.list.read,
			farthest,
			this.cap,
			SCAN_PAGES_PER_POLL - this.requests,
			this.#isBelowFloor,
			this.parameters.timeUp,
			answer.items.length,
		);
		const top = band.answers[0]?.items[0];
		// A new item dated before the newest known: the clock stepped back, and the read goes deep from the first page.
		const stepped = band.answers.some(({ items }) => items.some((item) => this.#isNew(item) && this.state.top !== null && dateOf(item) < this.state.top));
		if (stepped || (top !== undefined && below(top, this.floor))) {
			// Or the band did not get above the floor (a page above it could not show that nothing moved): down from the first page as usual.
			this.requests += band.requests;
			if (stepped) this.#goDeep(band.answers.flatMap(({ items }) => items));
			return undefined;
		}
		this.firstPage = band.answers.length > 0 ? this.answers[0] : undefined;
		if (this.#takeBand(band)) return 'stop';
		return band.answers.length > 0 ? 'next' : undefined;
	}

	#pagesOf = (first: Page<T>): number => Math.ceil((first.maxpage * PagePromise.sizeGiven(first)) / this.list.pageSize);

	#stepSuspected(): boolean {
		const items = [...this.seen.values()].filter(this.#isNew);
		return (
			items.some((item) => this.state.top !== null && dateOf(item) < this.state.top) ||
			(this.pages !== undefined && this.pages > this.state.pages && items.length === 0)
		);
	}

	/** The pages that hold a counted long run's ends, where the share's pages did not show them. */
	async #readRunEnds(): Promise<void> {
		const longRunDate = this.longRunDate;
		if (longRunDate === null || this.requests === 0) return;
		const ends = await readRunEnds(this.list.read, longRunDate, this.endReads, this.run!.bottom, this.answers, this.cap, this.parameters.timeUp);
		this.requests += ends.length;
		this.endAnswers.push(...ends);
		for (const { items } of ends) for (const item of items) if (dateOf(item) === longRunDate && !this.seen.has(item.id)) this.seen.set(item.id, item);
	}

	/**
	 * Runs of equal dates that pages split are read again whole (see splitRuns.ts): those below the
	 * floor are not this read's, and the newest of a read that does not start at the top is the next cycle's.
	 */
	async #readSplitRuns(): Promise<void> {
		const top = newestDate([...this.seen.values()], null);
		// A run longer than a poll reads is counted, not read whole (see PendingRead.run).
		const skip = (date: string) => below({ id: 0, date }, this.floor) || (this.startOffset > 0 && date === top) || date === this.longRunDate;
		const runs = await readSplitRuns(this.list.read, this.answers, this.cap, SCAN_PAGES_PER_POLL - this.requests, skip, this.pending?.run ?? null);
		this.splitRequests += runs.requests;
		for (const item of runs.items) if (!this.seen.has(item.id)) this.seen.set(item.id, item);
		// The oldest run not read whole: the next cycle reads down to it again.
		this.broken = runs.broken.reduce<BrokenRun | undefined>((oldest, run) => (oldest === undefined || run.date < oldest.date ? run : oldest), undefined);
	}
}
