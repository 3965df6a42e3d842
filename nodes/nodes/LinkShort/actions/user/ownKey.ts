import type { IDataObject } from 'n8n-workflow';
import type { LinkShortClient, User } from '@linkshort/client/core';

/**
 * A user as output, with the credential's own key redacted: an administrator's list includes the
 * administrator, whose API key is the one this node signs with. Other users' keys stay, for
 * provisioning.
 */
export function userOutput(client: LinkShortClient, user: User): IDataObject {
	return typeof user.apikey === 'string' ? { ...user, apikey: client.redact(user.apikey) } : { ...user };
}
