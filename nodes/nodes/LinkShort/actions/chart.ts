import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { clickChart, type ChartStatistics } from '@linkshort/client/charts';
import { ItemWithBinary } from './operation';

/** Add Click Chart and the binary field it goes to: the options of Link Get and QR Code Get. */
export function chartFields(unit: 'clicks' | 'scans'): INodeProperties[] {
	return [
		{
			displayName: unit === 'scans' ? 'Add Scan Chart' : 'Add Click Chart',
			name: 'addChart',
			type: 'boolean',
			default: false,
			description: `Whether to add a PNG chart of the ${unit} (unique ${unit}, top countries, referrers, browsers and OS) as binary data, ready to attach in a Slack, Email or Telegram node`,
		},
		{
			displayName: 'Put Chart in Field',
			name: 'chartField',
			type: 'string',
			default: 'chart',
			required: true,
			displayOptions: { show: { addChart: [true] } },
			description: 'The name of the binary field the chart goes to',
		},
	];
}

/** A file name of letters, digits, dots, hyphens and underscores only: `spring-sale-clicks.png`. */
function fileName(base: string, unit: 'clicks' | 'scans'): string {
	// Cut first: a run of hyphens that does not end the text makes `-+$` quadratic.
	const safe = base
		.slice(0, 80)
		.replace(/[^A-Za-z0-9._-]+/g, '-')
		.replace(/^[-.]+|-+$/g, '');
	return `${safe || 'chart'}-${unit}.png`;
}

/** The binary field the chart goes to, or undefined when Add Click Chart is off; read before any request. */
export function chartField(context: IExecuteFunctions, itemIndex: number): string | undefined {
	if (!(context.getNodeParameter('addChart', itemIndex, false) as boolean)) return undefined;
	return (context.getNodeParameter('chartField', itemIndex, 'chart') as string).trim() || 'chart';
}

/** The output item: its JSON, and the chart as a PNG file in `field` when there is one. */
export async function withChart(
	context: IExecuteFunctions,
	field: string | undefined,
	json: IDataObject,
	chart: { stats: ChartStatistics; title: string; fileBase: string; unit: 'clicks' | 'scans' },
): Promise<IDataObject | ItemWithBinary> {
	if (field === undefined) return json;
	const png = clickChart(chart.stats, { title: chart.title, unit: chart.unit }).png();
	const binary = await context.helpers.prepareBinaryData(Buffer.from(png), fileName(chart.fileBase, chart.unit), 'image/png');
	return new ItemWithBinary(json, { [field]: binary });
}
