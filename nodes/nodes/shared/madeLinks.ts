import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { AccountRegistry, ForgottenLinks, MadeLinks, MAX_INDEXED_ACCOUNTS, type LinkShortClient } from '@linkshort/client/core';

/**
 * Where a workflow keeps the record of the links its LinkShort nodes made with Reuse Existing Link
 * on: its `global` static data (shared by the workflow's nodes, so an Update or Delete node of the
 * same workflow drops what it changed), one record per account. n8n saves static data after each
 * execution that is not manual (`workflowExecuteAfter`, on main and on queue-mode workers alike),
 * whole: two executions saving at once keep the later one's, so each execution merges this
 * n8n instance's record into what it writes, and an entry lost to another instance's save costs at most
 * a duplicate (the link is then not proven, so not reused). n8n 2 (2.41 measured) hands a queue-mode
 * worker's new executions no static data (the execution's stored workflow omits it and the job asks
 * for none), so there only this worker's in-memory record counts; and the worker's save replaces the
 * workflow's whole static data. With Remember Made Links in the Workflow off, the record stays in
 * this process and no static data is written.
 */
const STATIC_DATA_KEY = 'linkShortMadeLinks';

/** Workflows whose records this n8n instance keeps in memory (each at most `MAX_MADE_LINKS` links). */
const MAX_WORKFLOW_RECORDS = 16;

/** Per account: the links changed or deleted in this n8n instance, which no record saved earlier may vouch for. */
const forgottenByAccount = new AccountRegistry<ForgottenLinks>(MAX_INDEXED_ACCOUNTS);
/** Per workflow and account: this instance's record (what its executions made, merged with what they loaded). */
const records = new AccountRegistry<{ account: string; record: MadeLinks }>(MAX_WORKFLOW_RECORDS);
const ofClient = new WeakMap<LinkShortClient, WorkflowMadeLinks>();

/** One execution's view of its workflow's record for the client's account. */
class WorkflowMadeLinks {
	readonly #context: IExecuteFunctions;
	readonly #account: string;
	#record: MadeLinks | undefined;
	/** A Create of this execution keeps the record in the workflow's static data (Remember Made Links in the Workflow). */
	#remembers = false;
	#written = -1;

	constructor(context: IExecuteFunctions, client: LinkShortClient) {
		this.#context = context;
		this.#account = client.accountId;
		// A link this execution updates or deletes is dropped from every record of its account in the
		// instance (its password, redirect type or parameters may have changed), and from this workflow's.
		client.links.watch((change) => {
			if (change.kind === 'created') return;
			for (const { account, record } of records.values()) if (account === this.#account) record.forget(change.id);
			this.#forgotten().add(change.id);
			if (this.#remembers) this.save();
			else if (this.#savedHas(change.id)) this.#dropSaved(change.id);
		});
	}

	/**
	 * This workflow's record for the account in this n8n process; with `remember`, merged once per
	 * execution with what the workflow saved, and kept in its static data by `save`.
	 */
	record(remember = true): MadeLinks {
		if (!this.#record) {
			const key = `${this.#context.getWorkflow().id ?? ''} ${this.#account}`;
			this.#record = records.get(key, () => ({ account: this.#account, record: new MadeLinks(this.#forgotten()) })).record;
		}
		if (remember && !this.#remembers) {
			this.#remembers = true;
			if (this.#record.merge(this.#saved()[this.#account])) this.#write(this.#record);
			else this.#written = this.#record.revision;
		}
		return this.#record;
	}

	/** Writes the record into the workflow's static data when it changed since this execution wrote or read it (only when remembered there). */
	save(): void {
		if (!this.#remembers) return;
		const record = this.record();
		if (record.revision !== this.#written) this.#write(record);
	}

	#forgotten(): ForgottenLinks {
		return forgottenByAccount.get(this.#account, () => new ForgottenLinks());
	}

	#saved(): IDataObject {
		return (this.#context.getWorkflowStaticData('global')[STATIC_DATA_KEY] as IDataObject | undefined) ?? {};
	}

	#savedHas(id: number): boolean {
		const links = (this.#saved()[this.#account] as { links?: IDataObject } | undefined)?.links;
		return links !== undefined && links !== null && typeof links === 'object' && String(id) in links;
	}

	/** Drops link `id` from the record the workflow saved (changed by an execution that keeps no record there). */
	#dropSaved(id: number): void {
		const saved = this.#saved()[this.#account] as { links: IDataObject } & IDataObject;
		const links = { ...saved.links };
		delete links[String(id)];
		this.#context.getWorkflowStaticData('global')[STATIC_DATA_KEY] = { ...this.#saved(), [this.#account]: { ...saved, links } };
	}

	/** Sets the account's record (the most recently written last; at most `MAX_INDEXED_ACCOUNTS` accounts per workflow). */
	#write(record: MadeLinks): void {
		const accounts: IDataObject = { ...this.#saved() };
		delete accounts[this.#account];
		accounts[this.#account] = record.state() as unknown as IDataObject;
		for (const old of Object.keys(accounts).slice(0, -MAX_INDEXED_ACCOUNTS)) delete accounts[old];
		this.#context.getWorkflowStaticData('global')[STATIC_DATA_KEY] = accounts;
		this.#written = record.revision;
	}
}

/**
 * The workflow's record of made links for `client`'s account, for this execution (one per client:
 * n8n's router makes one client an execution). The first call watches the client's changes.
 */
export function madeLinksFor(context: IExecuteFunctions, client: LinkShortClient): WorkflowMadeLinks {
	let made = ofClient.get(client);
	if (!made) ofClient.set(client, (made = new WorkflowMadeLinks(context, client)));
	return made;
}
