import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { ClickCountSchema, ClickPeriodSchema, HourSchema, MinutesSchema, TimeZoneSchema } from '@linkshort/client/core';
import type { EventParameters } from './event';
import type { EventName } from './events';

type ClickEventParameters = Pick<EventParameters, 'timeZone' | 'digest' | 'rate'>;

/**
 * The click events' settings, checked with the client's schemas before any request: an error
 * names the field as the editor shows it. Other events get harmless defaults.
 */
export function clickEventParameters(context: IPollFunctions, eventName: EventName): ClickEventParameters {
	const field = <T>(
		label: string,
		schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ message: string }> } } },
		value: unknown,
	): T => {
		const parsed = schema.safeParse(value);
		if (!parsed.success) throw new NodeOperationError(context.getNode(), `${label}: ${parsed.error.issues[0]?.message ?? 'is not valid'}`);
		return parsed.data;
	};
	const parameters: ClickEventParameters = { timeZone: 'UTC', digest: { period: 'week', hour: 9 }, rate: { clicks: 100, minutes: 60, factor: null } };
	if (eventName !== 'clickDigest' && eventName !== 'linkClickRate') return parameters;
	parameters.timeZone = field("Timezone (the workflow's settings)", TimeZoneSchema, context.getTimezone());
	if (eventName === 'clickDigest') {
		parameters.digest = {
			period: field('Period', ClickPeriodSchema, context.getNodeParameter('digestPeriod', 'week')),
			hour: field('Hour', HourSchema, context.getNodeParameter('digestHour', 9)),
		};
		return parameters;
	}
	const factor = Number(context.getNodeParameter('rateFactor', 1));
	if (!(Number.isFinite(factor) && factor >= 1))
		throw new NodeOperationError(context.getNode(), 'Times Its Usual Rate: must be a number of at least 1 (1: the clicks alone count)');
	parameters.rate = {
		clicks: field('Clicks', ClickCountSchema, context.getNodeParameter('rateClicks', 100)),
		minutes: field('Minutes', MinutesSchema, context.getNodeParameter('rateMinutes', 60)),
		factor: factor === 1 ? null : factor,
	};
	return parameters;
}
