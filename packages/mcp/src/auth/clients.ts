/**
 * Who may ask for a sign-in: clients registered dynamically (RFC 7591), each registration's size
 * bounded (what the store keeps of registrations is bounded there), and clients whose `client_id`
 * is the https address of their metadata document (Client ID Metadata Documents, fetched by
 * `client-documents.ts`).
 */
import { ClientDocuments } from "./client-documents";
import { clientNameOf, isDocumentClientId, redirectUrisOf } from "./client-metadata";
import { OAuthError, OAuthErrorCode } from "./oauth-error";
import { randomToken, nowSeconds } from "./tokens";
import type { AuthStore, OAuthClient } from "./store";

export { clientNameOf, isDocumentClientId, MAX_REDIRECT_URI_BYTES, redirectMatches, redirectUrisOf } from "./client-metadata";
export { OAuthError } from "./oauth-error";

export interface ClientRegistryOptions {
  /** For tests only: fetch metadata documents over http and from this machine's addresses. */
  allowInsecureMetadataFetch?: boolean;
  /** For tests only: the clock of the documents' cache, in epoch milliseconds. */
  now?: () => number;
}

export class ClientRegistry {
  readonly #documents: ClientDocuments;

  constructor(
    private readonly store: AuthStore,
    options: ClientRegistryOptions = {},
  ) {
    this.#documents = new ClientDocuments({
      insecure: options.allowInsecureMetadataFetch === true,
      ...(options.now !== undefined ? { now: options.now } : {}),
    });
  }

  /** RFC 7591: a public client (no secret) with the redirect URIs it lists, registered from this address (the store bounds each address's). */
  async register(metadata: unknown, address: string): Promise<Record<string, unknown>> {
    if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata))
      throw new OAuthError(OAuthErrorCode.InvalidClientMetadata, "the body must be a JSON object");
    const fields = metadata as Record<string, unknown>;
    const client: OAuthClient = {
      clientId: randomToken(),
      redirectUris: redirectUrisOf(fields),
      ...clientNameOf(fields),
      issuedAt: nowSeconds(),
      registeredFrom: address,
    };
    await this.store.saveClient(client);
    return {
      client_id: client.clientId,
      client_id_issued_at: client.issuedAt,
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...(client.clientName !== undefined ? { client_name: client.clientName } : {}),
    };
  }

  /** The client a `client_id` names, or an OAuthError saying why there is none. `address`: the client address asking (it bounds first fetches of documents). */
  async find(clientId: string, address?: string): Promise<OAuthClient> {
    if (clientId === "" || clientId.length > 2000) throw new OAuthError(OAuthErrorCode.InvalidClient, "client_id is missing or too long");
    if (isDocumentClientId(clientId)) return this.#documents.find(clientId, address);
    const client = await this.store.client(clientId);
    if (client === undefined) throw new OAuthError(OAuthErrorCode.InvalidClient, "this client_id was not registered here", 401);
    return client;
  }

  /** Someone signed in through this client: no flood of anonymous registrations or of made-up documents pushes it out now. */
  async signedIn(clientId: string, now: number): Promise<void> {
    if (isDocumentClientId(clientId)) this.#documents.signedIn(clientId);
    else await this.store.clientSignedIn(clientId, now);
  }
}
