import type { INodeProperties } from 'n8n-workflow';

function isProperty(option: unknown): option is INodeProperties {
	return typeof option === 'object' && option !== null && 'type' in option;
}

function findParameter(properties: INodeProperties[], name: string): INodeProperties | undefined {
	const top = properties.find((property) => property.name === name);
	if (top) return top;
	for (const property of properties) {
		if (property.type !== 'collection') continue;
		const nested = (property.options ?? []).filter(isProperty).find((option) => option.name === name);
		if (nested) return nested;
	}
	return undefined;
}

/**
 * A field as the node shows it: `url` is "URL", `custom` "Custom Alias",
 * `geotarget.0.link` "Geo-Targeting 1: Link", `vcard.email` "Contact: Email".
 */
export function fieldLabel(properties: INodeProperties[], path: string): string {
	const [first = '', ...rest] = path.split('.');
	const property = findParameter(properties, first);
	if (!property) return path;
	let label = property.displayName;
	let columns: INodeProperties[] = [];
	if (property.type === 'fixedCollection') {
		columns = (property.options ?? []).flatMap((group) => ('values' in group ? group.values : []));
	} else if (property.type === 'collection') {
		columns = (property.options ?? []).filter(isProperty);
	}
	for (const part of rest) {
		if (/^\d+$/.test(part)) {
			label += ` ${Number(part) + 1}`;
			continue;
		}
		label += `: ${columns.find((column) => column.name === part)?.displayName ?? part}`;
	}
	return label;
}
