import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import { linkShortClient, toNodeError } from '../LinkShort/transport';
import { EVENTS, type EventName, type EventParameters, type PollEvent } from './events';

function parseLinkIds(value: string): number[] | undefined {
	const parts = value
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean);
	if (parts.some((part) => !/^[1-9]\d*$/.test(part))) return undefined;
	return parts.map(Number).sort((a, b) => a - b);
}

/**
 * One poll. In manual mode ("Fetch Test Event") a sample, with the state untouched; on first
 * activation (or after the event or its settings change) a baseline and nothing emitted; then the
 * items since the last poll. State is written back only when the whole poll succeeded.
 */
async function pollEvent(this: IPollFunctions, eventName: EventName, parameters: EventParameters): Promise<INodeExecutionData[][] | null> {
	const event = EVENTS[eventName] as PollEvent<IDataObject> | undefined;
	if (!event) throw new NodeOperationError(this.getNode(), `Event: "${eventName}" is not a known event`);
	const client = await linkShortClient(this);
	const emit = (items: IDataObject[]) => (items.length > 0 ? [this.helpers.returnJsonArray(items)] : null);

	if (this.getMode() === 'manual') return emit(await event.sample(client, parameters));

	const staticData = this.getWorkflowStaticData('node');
	const key = JSON.stringify({ event: eventName, ...(eventName === 'linkClickThreshold' ? { threshold: parameters.threshold, linkIds: parameters.linkIds } : {}) });
	if (staticData.key !== key || staticData.state === undefined) {
		const baseline = await event.baseline(client, parameters);
		staticData.key = key;
		staticData.state = baseline;
		return null;
	}
	const { items, state } = await event.poll(client, staticData.state as IDataObject, parameters);
	staticData.state = state;
	return emit(items);
}

export class LinkShortTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'LinkShort Trigger',
		name: 'linkShortTrigger',
		icon: { light: 'file:../LinkShort/linkshort.svg', dark: 'file:../LinkShort/linkshort.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"]}}',
		description: 'Starts a workflow on new short links or QR codes, when a link reaches a number of clicks, or when clicks and scans grow',
		defaults: { name: 'LinkShort Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'linkShortApi', required: true }],
		properties: [
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Link Reached Click Threshold', value: 'linkClickThreshold', description: 'A link\'s clicks reached a number (once per crossing)' },
					{ name: 'Link Received Clicks', value: 'newLinkClicks', description: 'A link\'s clicks grew since the last check' },
					{ name: 'New Link', value: 'newLink', description: 'A short link was created' },
					{ name: 'New QR Code', value: 'newQrCode', description: 'A QR code was created' },
					{ name: 'QR Code Scanned', value: 'newQrScans', description: 'A QR code\'s scans grew since the last check' },
				],
				default: 'newLink',
			},
			{
				displayName: 'Threshold',
				name: 'threshold',
				type: 'number',
				default: 100,
				typeOptions: { minValue: 1 },
				displayOptions: { show: { event: ['linkClickThreshold'] } },
				description: 'The number of clicks that fires the trigger. Links already past it when the workflow is activated do not fire.',
			},
			{
				displayName: 'Link IDs',
				name: 'linkIds',
				type: 'string',
				default: '',
				placeholder: '12, 34',
				displayOptions: { show: { event: ['linkClickThreshold'] } },
				description: 'Watch only these links (comma-separated IDs); all links when empty',
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const eventName = this.getNodeParameter('event') as EventName;
		const linkIds = parseLinkIds(String(this.getNodeParameter('linkIds', '') ?? ''));
		if (!linkIds) throw new NodeOperationError(this.getNode(), 'Link IDs: must be whole numbers separated by commas');
		const threshold = Number(this.getNodeParameter('threshold', 100));
		if (eventName === 'linkClickThreshold' && !(Number.isInteger(threshold) && threshold >= 1)) {
			throw new NodeOperationError(this.getNode(), 'Threshold: must be a whole number of at least 1');
		}
		try {
			return await pollEvent.call(this, eventName, { threshold, linkIds, node: this.getNode() });
		} catch (error) {
			throw toNodeError(this.getNode(), error);
		}
	}
}
