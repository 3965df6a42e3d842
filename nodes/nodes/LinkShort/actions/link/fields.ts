import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { RECORDED_REUSE_RULE, REDIRECT_TYPES, UTM_FIELDS, type LinkCreateInput, type LinkUpdateInput, type Utm, type UtmField } from '@linkshort/client/core';
import { toApiTimestamp } from '../dates';
import { filled } from '../filled';
import { HELD_LINK_VERSION } from './heldLink';

const urlField: INodeProperties = {
	displayName: 'URL',
	name: 'url',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'https://example.com/a/long/page',
	description: 'The long URL to shorten (http or https)',
};

type Column = [name: string, displayName: string, placeholder: string, description: string];

/** A repeatable list of two-field rows (a target and its link, a parameter and its value). */
function rowList(displayName: string, name: string, addLabel: string, description: string, row: [string, string], columns: [Column, Column]): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: addLabel,
		default: {},
		description,
		options: [
			{
				displayName: row[1],
				name: row[0],
				values: columns.map(([column, title, placeholder, help]) => ({
					displayName: title,
					name: column,
					type: 'string' as const,
					default: '',
					placeholder,
					description: help,
				})),
			},
		],
	};
}

/** The node's name for a UTM field: `utmSource` for `source`. */
const utmParameter = (field: UtmField) => `utm${field.charAt(0).toUpperCase()}${field.slice(1)}`;

const UTM_EXAMPLES: Record<UtmField, [placeholder: string, description: string]> = {
	source: ['newsletter', 'Where the traffic comes from (utm_source), such as newsletter or facebook'],
	medium: ['email', 'The kind of channel (utm_medium), such as email, social or cpc'],
	campaign: ['spring-sale', 'The campaign name (utm_campaign)'],
	term: ['running shoes', 'The paid search keyword (utm_term)'],
	content: ['header-banner', 'Which ad or link was clicked (utm_content)'],
};

const utmOptions: INodeProperties[] = UTM_FIELDS.map((field) => ({
	displayName: `UTM ${field.charAt(0).toUpperCase()}${field.slice(1)}`,
	name: utmParameter(field),
	type: 'string',
	default: '',
	placeholder: UTM_EXAMPLES[field][0],
	description: `${UTM_EXAMPLES[field][1]}; added to the destination URL as a parameter`,
}));

/** A client field path as the node names it: `utm.source` is the node's `utmSource`. */
export function linkParameterOf(field: string): string {
	const [first, second] = field.split('.');
	return first === 'utm' && (UTM_FIELDS as readonly string[]).includes(second ?? '') ? utmParameter(second as UtmField) : field;
}

const byDisplayName = (a: INodeProperties, b: INodeProperties) => a.displayName.localeCompare(b.displayName);

/** The fields by name, then the UTM fields together in the order campaigns name them (source, medium, campaign, term, content). */
function linkOptions(redirectType: INodeProperties, extra: INodeProperties[] = []): INodeProperties[] {
	return [...[...baseLinkOptions(redirectType), ...extra].sort(byDisplayName), ...utmOptions];
}

function baseLinkOptions(redirectType: INodeProperties): INodeProperties[] {
	return [
		{
			displayName: 'Custom Alias',
			name: 'custom',
			type: 'string',
			default: '',
			placeholder: 'spring-sale',
			description: 'The short path instead of a random one: 3 to 50 letters, digits or hyphens',
		},
		{
			displayName: 'Description',
			name: 'metadescription',
			type: 'string',
			default: '',
			description: 'The meta description shown when the link is shared',
		},
		rowList(
			'Device Targeting',
			'devicetarget',
			'Add Device Target',
			'Send visitors on some devices to another URL',
			['targets', 'Target'],
			[
				['device', 'Device', 'iPhone', 'A device or system name, such as iPhone, iPad, Android or Windows'],
				['link', 'Link', 'https://apps.apple.com/app', 'Where visitors on this device go'],
			],
		),
		{
			displayName: 'Domain Name or ID',
			name: 'domain',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getDomains' },
			default: '',
			description:
				'The branded domain of the short link; the service\'s own when empty. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{
			displayName: 'Expiry',
			name: 'expiry',
			type: 'dateTime',
			default: '',
			description: "When the short link stops working (in the workflow's time zone)",
		},
		rowList(
			'Geo-Targeting',
			'geotarget',
			'Add Country Target',
			'Send visitors from some countries to another URL',
			['targets', 'Target'],
			[
				['location', 'Country', 'Canada', 'The country name in English'],
				['link', 'Link', 'https://example.ca', 'Where visitors from this country go'],
			],
		),
		rowList(
			'Query Parameters',
			'parameters',
			'Add Query Parameter',
			"Other name=value pairs added to the destination URL's query (?name=value), besides the UTM fields",
			['parameters', 'Parameter'],
			[
				['name', 'Name', 'ref', 'The parameter name'],
				['value', 'Value', 'partner-site', 'The parameter value'],
			],
		),
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'Visitors must enter this password before they are redirected',
		},
		redirectType,
		{
			displayName: 'Title',
			name: 'metatitle',
			type: 'string',
			default: '',
			description: 'The meta title shown when the link is shared',
		},
	];
}

/**
 * Create's list also offers the account's splash pages and CTA overlays, loaded from the service (so
 * n8n's name for a loaded list); it starts on Direct, the API's default and always in the list, so
 * an added field is valid.
 */
const createRedirectType: INodeProperties = {
	displayName: 'Redirect Type Name or ID',
	name: 'type',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getRedirectTypes' },
	default: 'direct',
	description:
		'How visitors are sent on: at once, in a frame, through a splash page (the service\'s or one of yours) or with a CTA overlay. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const updateRedirectType: INodeProperties = {
	displayName: 'Redirect Type',
	name: 'type',
	type: 'options',
	options: REDIRECT_TYPES.map((type) => ({ name: type.charAt(0).toUpperCase() + type.slice(1), value: type })),
	default: 'direct',
	description: 'How visitors are sent on',
};

const reuseOption: INodeProperties = {
	displayName: 'Reuse Existing Link',
	name: 'reuse',
	type: 'boolean',
	default: false,
	description: `Whether to answer with the existing link instead of making one, so a re-run or a form sent twice gives the same short link. ${RECORDED_REUSE_RULE} The output (or the error) says why a link was not reused.`,
};

/** Where Reuse keeps its record of the links made: the workflow's static data, or this n8n process only. */
const rememberOption: INodeProperties = {
	displayName: 'Remember Made Links in the Workflow',
	name: 'rememberMadeLinks',
	type: 'boolean',
	default: true,
	displayOptions: { show: { reuse: [true] } },
	description:
		"Whether Reuse Existing Link keeps its record of the links made in the workflow's static data, so that it survives a restart of n8n. " +
		'Off: the record lives in this n8n process only (lost at a restart) and the node writes no static data. ' +
		"In queue mode, turn it off when other nodes of this workflow keep state (a Google Sheets Trigger, a LinkShort Trigger): n8n 2.41 gives a worker's executions none of the workflow's saved data, so the record is not shared between workers, " +
		"and each worker's save replaces the workflow's whole saved data, erasing what the other nodes kept",
};

const additionalFields = (options: INodeProperties[], version: { lt: number } | { gte: number }): INodeProperties => ({
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options,
	displayOptions: { show: { '@version': ['lt' in version ? { _cnd: { lt: version.lt } } : { _cnd: { gte: version.gte } }] } },
});

/**
 * Reuse Existing Link says how to create, not what the link holds: from version 1.2 it is Create's
 * option, after the link's own fields; nodes saved before keep it among them.
 */
export const createFields: INodeProperties[] = [
	urlField,
	additionalFields(linkOptions(createRedirectType, [reuseOption, rememberOption]), { lt: HELD_LINK_VERSION }),
	additionalFields(linkOptions(createRedirectType), { gte: HELD_LINK_VERSION }),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [reuseOption, rememberOption],
		displayOptions: { show: { '@version': [{ _cnd: { gte: HELD_LINK_VERSION } }] } },
	},
];

/** How this item's Create asked to reuse (Options from version 1.2, Additional Fields before): whether, and whether its record is kept in the workflow. */
export function reuseAsked(context: IExecuteFunctions, itemIndex: number): { reuse: boolean; remember: boolean } {
	const collection = context.getNode().typeVersion >= HELD_LINK_VERSION ? 'options' : 'additionalFields';
	const options = context.getNodeParameter(collection, itemIndex, {}) as IDataObject;
	return { reuse: options.reuse === true, remember: options.rememberMadeLinks !== false };
}

export const updateFields: INodeProperties[] = [
	urlField,
	{ displayName: 'Update Fields', name: 'updateFields', type: 'collection', placeholder: 'Add Field', default: {}, options: linkOptions(updateRedirectType) },
];

function rows<T>(value: unknown, key: string): T[] | undefined {
	const list = (value as IDataObject | undefined)?.[key];
	return Array.isArray(list) && list.length > 0 ? (list as T[]) : undefined;
}

/**
 * The client's link input from the form's fields: Create's Redirect Type also takes splash page and
 * overlay ids, Update's only the API's redirect types. The client checks the values either way.
 */
export function linkInput(context: IExecuteFunctions, itemIndex: number, collection: 'additionalFields'): LinkCreateInput;
export function linkInput(context: IExecuteFunctions, itemIndex: number, collection: 'updateFields'): LinkUpdateInput;
export function linkInput(context: IExecuteFunctions, itemIndex: number, collection: 'additionalFields' | 'updateFields'): LinkCreateInput | LinkUpdateInput {
	const url = context.getNodeParameter('url', itemIndex) as string;
	const fields = context.getNodeParameter(collection, itemIndex, {}) as IDataObject;
	const { geotarget, devicetarget, parameters, expiry, type, ...others } = fields;
	// how to create, not what
	delete others.reuse;
	delete others.rememberMadeLinks;

	const utm: Utm = {};
	const rest: IDataObject = {};
	for (const [name, value] of Object.entries(others)) {
		const field = UTM_FIELDS.find((candidate) => utmParameter(candidate) === name);
		if (field === undefined) rest[name] = value;
		else if (value !== '' && value !== undefined && value !== null) utm[field] = value as string;
	}
	const typeValue = typeof type === 'string' && /^\d+$/.test(type) ? Number(type) : type;
	return {
		url,
		...(filled(rest) as Partial<LinkCreateInput>),
		...(typeValue !== undefined && typeValue !== '' ? { type: typeValue as LinkCreateInput['type'] } : {}),
		...(expiry !== undefined && expiry !== null && expiry !== '' ? { expiry: toApiTimestamp(expiry, context.getTimezone()) } : {}),
		...(rows(geotarget, 'targets') ? { geotarget: rows(geotarget, 'targets') } : {}),
		...(rows(devicetarget, 'targets') ? { devicetarget: rows(devicetarget, 'targets') } : {}),
		...(rows(parameters, 'parameters') ? { parameters: rows(parameters, 'parameters') } : {}),
		...(Object.keys(utm).length > 0 ? { utm } : {}),
	};
}
