import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { linkShortClient } from '../../shared/client';

/** The service's own domain first, then the account's branded domains. */
export async function getDomains(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const client = await linkShortClient(this);
	const options: INodePropertyOptions[] = [{ name: `Default (${new URL(client.baseUrl).host})`, value: '' }];
	for await (const domain of client.domains.list({ limit: 100 })) options.push({ name: domain.domain, value: domain.domain });
	return options;
}

/** Direct, frame and splash, then each custom splash page (by id) and CTA overlay (`overlay-<id>`). */
export async function getRedirectTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const client = await linkShortClient(this);
	const options: INodePropertyOptions[] = [
		{ name: 'Direct', value: 'direct', description: 'Redirect at once' },
		{ name: 'Frame', value: 'frame', description: 'Show the page in a frame under the short URL' },
		{ name: 'Splash', value: 'splash', description: "Show the service's splash page first" },
	];
	for await (const page of client.splashPages.list({ limit: 100 })) {
		options.push({ name: `Splash Page: ${page.name}`, value: String(page.id) });
	}
	for await (const overlay of client.overlays.list({ limit: 100 })) {
		options.push({ name: `CTA Overlay: ${overlay.name}`, value: `overlay-${overlay.id}` });
	}
	return options;
}
