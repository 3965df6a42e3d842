import type { INodeProperties } from 'n8n-workflow';
import { PIXEL_TYPES } from '@linkshort/client/core';

const PIXEL_NAMES: Record<(typeof PIXEL_TYPES)[number], string> = {
	gtmpixel: 'Google Tag Manager',
	gapixel: 'Google Analytics',
	fbpixel: 'Facebook',
	adwordspixel: 'Google Ads',
	linkedinpixel: 'LinkedIn',
	twitterpixel: 'Twitter',
	adrollpixel: 'AdRoll',
	quorapixel: 'Quora',
	pinterest: 'Pinterest',
	bing: 'Bing',
	snapchat: 'Snapchat',
	reddit: 'Reddit',
};

export const pixelTypeField: INodeProperties = {
	displayName: 'Type',
	name: 'type',
	type: 'options',
	required: true,
	options: PIXEL_TYPES.map((value) => ({ name: PIXEL_NAMES[value], value })).sort((a, b) => a.name.localeCompare(b.name)),
	default: 'gtmpixel',
	description: 'The tracking provider',
};

export const tagField: INodeProperties = {
	displayName: 'Tag',
	name: 'tag',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'GTM-ABC123',
	description: "The provider's ID for this pixel",
};
