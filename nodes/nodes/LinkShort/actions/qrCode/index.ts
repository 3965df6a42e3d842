import { defineResource } from '../resource';
import { create } from './create.operation';
import { deleteQrCode } from './delete.operation';
import { get } from './get.operation';
import { getMany } from './getMany.operation';
import { update } from './update.operation';

export const qrCode = defineResource({ name: 'qrCode', displayName: 'QR Code', defaultOperation: 'create' }, [
	{
		name: 'Create',
		value: 'create',
		action: 'Create a QR code',
		description: 'Create a QR code for a link, text, contact, Wi-Fi network and more',
		operation: create,
	},
	{ name: 'Delete', value: 'delete', action: 'Delete a QR code', description: 'Delete a QR code', operation: deleteQrCode },
	{ name: 'Get', value: 'get', action: 'Get a QR code', description: 'Get a QR code with its scan statistics', operation: get },
	{ name: 'Get Many', value: 'getMany', action: 'Get many QR codes', description: 'List QR codes with their scans', operation: getMany },
	{ name: 'Update', value: 'update', action: 'Update a QR code', description: "Change a QR code's content or colours", operation: update },
]);
