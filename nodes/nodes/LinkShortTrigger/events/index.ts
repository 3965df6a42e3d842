import { clickDigest } from './clickDigest';
import { linkClickRate } from './clickRate';
import { linkClickThreshold } from './clickThreshold';
import { newLinkClicks, newQrScans } from './counts';
import { newLink, newQrCode } from './newItems';

export const EVENTS = { newLink, newQrCode, linkClickThreshold, newLinkClicks, newQrScans, clickDigest, linkClickRate } as const;
export type EventName = keyof typeof EVENTS;

/** What each event is called where a person sees it (the node's subtitle, the node creator). */
export const EVENT_NAMES: Record<EventName, string> = {
	newLink: 'New Link',
	newQrCode: 'New QR Code',
	linkClickThreshold: 'Link Reached Click Threshold',
	newLinkClicks: 'Link Received Clicks',
	newQrScans: 'QR Code Scanned',
	clickDigest: 'Click Digest',
	linkClickRate: 'Link Reached Click Rate',
};
