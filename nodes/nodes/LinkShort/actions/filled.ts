import type { IDataObject } from 'n8n-workflow';

/** Drops empty optional values, so that only what the user filled in is sent. */
export function filled<T extends IDataObject>(values: T): Partial<T> {
	return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '' && value !== undefined && value !== null)) as Partial<T>;
}
