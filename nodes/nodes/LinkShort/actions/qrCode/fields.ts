import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { QR_TYPES, WIFI_ENCRYPTIONS, type QrCodeCreateInput, type QrType } from '@linkshort/client/core';
import { toRgbColour } from '@linkshort/client/values';
import { filled } from '../filled';

const TYPE_NAMES: Record<QrType, string> = {
	text: 'Text',
	vcard: 'Contact Card (vCard)',
	link: 'Link',
	email: 'Email',
	phone: 'Phone Call',
	sms: 'SMS',
	wifi: 'Wi-Fi Network',
};

const when = (type: QrType) => ({ show: { qrType: [type] } });

const VCARD_FIELDS: Array<[string, string, string]> = [
	['firstname', 'First Name', ''],
	['lastname', 'Last Name', ''],
	['organization', 'Organization', ''],
	['phone', 'Phone', '+1 555 010 0100'],
	['cell', 'Mobile', '+1 555 010 0101'],
	['fax', 'Fax', ''],
	['email', 'Email', 'name@email.com'],
	['site', 'Website', 'https://example.com'],
	['street', 'Street', ''],
	['city', 'City', ''],
	['state', 'State', ''],
	['country', 'Country', ''],
	['zip', 'Postal Code', ''],
];

/** The QR type and, for each type, the data it needs. */
const dataFields: INodeProperties[] = [
	{
		displayName: 'QR Type',
		name: 'qrType',
		type: 'options',
		required: true,
		options: QR_TYPES.map((value) => ({ name: TYPE_NAMES[value], value })).sort((a, b) => a.name.localeCompare(b.name)),
		default: 'link',
		description: 'What the QR code holds',
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 3 },
		displayOptions: when('text'),
		description: 'The text shown when scanned',
	},
	{
		displayName: 'Link',
		name: 'link',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.com',
		displayOptions: when('link'),
		description: 'The URL opened when scanned; scans are counted',
	},
	{
		displayName: 'Phone Number',
		name: 'phone',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+1 555 010 0100',
		displayOptions: when('phone'),
		description: 'The number called when scanned',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'name@email.com',
		displayOptions: when('email'),
		description: 'The address of the e-mail written when scanned',
	},
	{ displayName: 'Subject', name: 'subject', type: 'string', default: '', displayOptions: when('email'), description: 'The subject of the e-mail' },
	{
		displayName: 'Body',
		name: 'body',
		type: 'string',
		default: '',
		typeOptions: { rows: 3 },
		displayOptions: when('email'),
		description: 'The text of the e-mail',
	},
	{
		displayName: 'Phone Number',
		name: 'smsPhone',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+1 555 010 0100',
		displayOptions: when('sms'),
		description: 'The number the SMS goes to',
	},
	{ displayName: 'Message', name: 'message', type: 'string', default: '', displayOptions: when('sms'), description: 'The text of the SMS' },
	{
		displayName: 'Network Name (SSID)',
		name: 'ssid',
		type: 'string',
		required: true,
		default: '',
		displayOptions: when('wifi'),
		description: 'The Wi-Fi network to join',
	},
	{
		displayName: 'Network Password',
		name: 'wifiPassword',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		displayOptions: when('wifi'),
		description: 'The Wi-Fi password',
	},
	{
		displayName: 'Encryption',
		name: 'encryption',
		type: 'options',
		options: WIFI_ENCRYPTIONS.map((value) => ({ name: value === 'nopass' ? 'None' : value, value })),
		default: 'WPA',
		displayOptions: when('wifi'),
		description: 'The Wi-Fi security',
	},
	{
		displayName: 'Contact',
		name: 'vcard',
		type: 'collection',
		placeholder: 'Add Contact Field',
		default: {},
		displayOptions: when('vcard'),
		description: 'The contact card; give at least a name or an organization',
		options: VCARD_FIELDS.map(
			([name, displayName, placeholder]): INodeProperties => ({
				displayName,
				name,
				type: 'string',
				default: '',
				...(placeholder ? { placeholder } : {}),
				description: `The contact's ${displayName.toLowerCase()}`,
			}),
		),
	},
];

const appearance: INodeProperties[] = [
	{ displayName: 'Background Color', name: 'background', type: 'color', default: '#ffffff', description: 'The background colour of the QR image' },
	{ displayName: 'Foreground Color', name: 'foreground', type: 'color', default: '#000000', description: 'The colour of the QR modules' },
	{
		displayName: 'Logo URL',
		name: 'logo',
		type: 'string',
		default: '',
		placeholder: 'https://example.com/logo.png',
		description: 'A PNG or JPG logo placed in the middle of the QR image',
	},
];

const nameField: INodeProperties = { displayName: 'Name', name: 'name', type: 'string', default: '', description: 'A name to recognise the QR code by' };

export const createFields: INodeProperties[] = [
	...dataFields,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [...appearance, nameField].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
];

export const updateFields: INodeProperties[] = [
	...dataFields,
	{ displayName: 'Update Fields', name: 'updateFields', type: 'collection', placeholder: 'Add Field', default: {}, options: appearance },
];

/** Where each type's data comes from: one parameter, or the parameter of each key of the data object. */
const DATA_PARAMETERS: Record<Exclude<QrType, 'vcard'>, string | Record<string, string>> = {
	text: 'text',
	link: 'link',
	phone: 'phone',
	email: { email: 'email', subject: 'subject', body: 'body' },
	sms: { phone: 'smsPhone', message: 'message' },
	wifi: { ssid: 'ssid', password: 'wifiPassword', encryption: 'encryption' },
};

function qrData(context: IExecuteFunctions, itemIndex: number, type: QrType): unknown {
	if (type === 'vcard') return filled(context.getNodeParameter('vcard', itemIndex, {}) as IDataObject);
	const value = (name: string) => context.getNodeParameter(name, itemIndex, '') as string;
	const source = DATA_PARAMETERS[type];
	if (typeof source === 'string') return value(source);
	return filled(Object.fromEntries(Object.entries(source).map(([key, parameter]) => [key, value(parameter)])));
}

/** The parameter a field of the client's QR input (`type`, `data`, `data.ssid`, ...) comes from. */
export function qrParameterOf(this: IExecuteFunctions, field: string, itemIndex: number): string {
	if (field === 'type') return 'qrType';
	const [head, key] = field.split('.', 2);
	if (head !== 'data') return field;
	const type = this.getNodeParameter('qrType', itemIndex, 'link') as QrType;
	if (type === 'vcard') return key ? `vcard.${key}` : 'vcard';
	const source = DATA_PARAMETERS[type];
	if (typeof source === 'string') return source;
	return (key ? source[key] : undefined) ?? Object.values(source)[0]!;
}

/** The client's QR input from the form's fields. */
export function qrInput(context: IExecuteFunctions, itemIndex: number, collection: 'additionalFields' | 'updateFields'): QrCodeCreateInput {
	const type = context.getNodeParameter('qrType', itemIndex) as QrType;
	const extra = filled(context.getNodeParameter(collection, itemIndex, {}) as IDataObject);
	for (const key of ['background', 'foreground'] as const) {
		if (typeof extra[key] === 'string') extra[key] = toRgbColour(extra[key] as string);
	}
	return { type, data: qrData(context, itemIndex, type), ...extra } as QrCodeCreateInput;
}
