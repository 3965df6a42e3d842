import { HttpCore } from "./internal/http";
import { accountId } from "./account-id";
import type { CoreClientOptions } from "./internal/options";
import { AccountResource } from "./resources/account";
import { DomainsResource } from "./resources/domains";
import { LinksResource } from "./resources/links/links";
import { OverlaysResource, SplashPagesResource } from "./resources/pages";
import { PixelsResource } from "./resources/pixels";
import { PlansResource } from "./resources/plans";
import { QrCodesResource } from "./resources/qr-codes";
import { UsersResource } from "./resources/users";
import type { RateLimitHeadroom } from "./internal/rate-limit";

/** The typed client of the Link-Shortening Service API v3, over the transport and sleep it is given. */
export class LinkShortClient {
  readonly account: AccountResource;
  readonly domains: DomainsResource;
  readonly splashPages: SplashPagesResource;
  readonly overlays: OverlaysResource;
  readonly links: LinksResource;
  readonly pixels: PixelsResource;
  readonly qrCodes: QrCodesResource;
  readonly plans: PlansResource;
  readonly users: UsersResource;
  /** The normalised base URL (no trailing slash or `/api`). */
  readonly baseUrl: string;
  /** Which account this client speaks for: its base URL and a digest of its key (`accountId`), never the key. */
  readonly accountId: string;
  readonly #core: HttpCore;

  constructor(options: CoreClientOptions) {
    const core = new HttpCore(options);
    this.#core = core;
    this.baseUrl = core.baseUrl;
    this.accountId = accountId(core.baseUrl, options.apiKey);
    this.account = new AccountResource(core);
    this.domains = new DomainsResource(core);
    this.splashPages = new SplashPagesResource(core);
    this.overlays = new OverlaysResource(core);
    this.links = new LinksResource(core);
    this.pixels = new PixelsResource(core);
    this.qrCodes = new QrCodesResource(core);
    this.plans = new PlansResource(core);
    this.users = new UsersResource(core);
  }

  /**
   * The key's rate-limit window as far as this client's pacing knows (shared by every client of
   * the key here): for work that must leave room for the user's own calls.
   */
  rateLimitHeadroom(): RateLimitHeadroom | undefined {
    return this.#core.rateLimitHeadroom();
  }

  /**
   * Removes this client's API key from text bound for a message, a log or an output, in every
   * form a server may echo it in (raw, JSON-escaped, URL-encoded, base64, HTML character
   * references, any letter case, cut to 16 characters or more): what a front end reports
   * beyond the client's own errors goes through the same rule.
   */
  redact(text: string): string {
    return this.#core.redact(text);
  }
}
