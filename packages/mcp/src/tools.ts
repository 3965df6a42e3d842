/**
 * The tools: each is one client call. Inputs are the client's own zod schemas with a description
 * per field for the model; the client checks every value again and does all HTTP, paging and pacing.
 *
 * Every definition and every JSON Schema is built once, when the module loads: a server is made per
 * HTTP request, and zod keeps each described schema in its global registry for good, so describing
 * per server would grow memory with every request.
 */
import {
  AbortedError,
  ApiError,
  AuthenticationError,
  createOrReuse,
  IdSchema,
  LinkCreateSchema,
  LinkListSchema,
  LinkUpdateSchema,
  NotFoundError,
  PaginationSchema,
  PermissionError,
  PlanSubscribeSchema,
  RateLimitError,
  QR_DATA_SCHEMAS,
  QrCodeCreateSchema,
  UserCreateSchema,
  UserListSchema,
  ValidationError,
  type IndexedLink,
  type LinkCreateInput as ClientLinkCreateInput,
  type LinkShortClient,
  type QrCodeCreateInput,
  type User,
} from "@linkshort/client";
import type { Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/v4";
import { capped, describeFailure } from "./failures";
import { SWEEP_PAGES_PER_CALL, type ServerLinkIndex } from "./link-index";
import {
  AccountOutput,
  BulkResultOutput,
  CreatedLinkOutput,
  CreatedQrCodeOutput,
  CreatedUserOutput,
  DomainPageOutput,
  FoundLinksOutput,
  LinkWithStatsOutput,
  MessageOutput,
  pagePosition,
  PlansOutput,
  QrCodePageOutput,
  QrCodeWithStatsOutput,
  ShortenedLinkOutput,
  ShortenedLinksOutput,
  UserOutput,
  UsersOutput,
  type UserWithoutKey,
} from "./outputs";
import { fetchQrImage } from "./qr-image";

const FIND_DEFAULT_RESULTS = 20;
const FIND_MAX_RESULTS = 100;
/** find_links ordered by clicks orders the best this many matches. */
const FIND_CLICK_ORDER_POOL = 1000;
/** The most URLs one shorten_links call takes. */
export const BULK_MAX_URLS = 50;
/**
 * How much longer than other tools shorten_links may run: it starts no new URL past the call's
 * deadline (answering with what it did and the URLs left), and a create already sent then has this
 * long to answer. With the default 25 s deadline it answers within 40 s, under the 60 s after
 * which clients give up.
 */
export const BULK_GRACE_MS = 15_000;

/** What a tool's work gets: the client, the server's link index, and the signal that ends the call (cancelled or past its deadline). */
export interface ToolContext {
  client: LinkShortClient;
  links: ServerLinkIndex;
  signal: AbortSignal;
  /** When the call's deadline passes (epoch ms): a tool that answers in parts starts no new part after it. */
  deadlineAt: number;
}

/** A structured answer with an image shown next to it (MCP image content). */
export class AnswerWithImage {
  constructor(
    readonly structured: Record<string, unknown>,
    readonly image: { data: string; mimeType: "image/png" } | undefined,
  ) {}
}

export type ToolOutcome = Record<string, unknown> | AnswerWithImage;

export interface ToolDefinition {
  name: string;
  /** Only with `--admin` and an administrator's key. */
  admin: boolean;
  /** Whether a call that ends without an answer may still have changed something. */
  changes: boolean;
  /** Checks the arguments; the client checks them again with its own rules. */
  input: z.ZodType;
  /** What tools/list shows: 2020-12 JSON Schemas, built once. */
  listing: Tool;
  /** Time past the call's deadline this tool keeps, to answer with what it did (it watches `deadlineAt` itself). */
  graceMs: number;
  run(args: unknown, context: ToolContext): Promise<ToolOutcome>;
}

/**
 * JSON Schema 2020-12 without a `$schema` declaration: MCP's default dialect, which every client
 * validator accepts (a draft-07 declaration is refused by 2020-12-only ones).
 */
function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Tool["inputSchema"] {
  const jsonSchema = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Record<string, unknown>;
  delete jsonSchema.$schema;
  return jsonSchema as Tool["inputSchema"];
}

interface Definition<Input extends z.ZodType> {
  name: string;
  title: string;
  description: string;
  input?: Input;
  /** The input as clients should see it, when it says more than `input` checks (the client checks the rest). */
  listedInput?: z.ZodType;
  output: z.ZodType;
  annotations: ToolAnnotations;
  admin?: boolean;
  graceMs?: number;
  run(args: z.output<Input>, context: ToolContext): Promise<ToolOutcome>;
}

const NO_ARGUMENTS = z.strictObject({});

function define<Input extends z.ZodType = typeof NO_ARGUMENTS>(definition: Definition<Input>): ToolDefinition {
  const input = definition.input ?? NO_ARGUMENTS;
  return {
    name: definition.name,
    admin: definition.admin ?? false,
    changes: definition.annotations.readOnlyHint !== true,
    input,
    listing: {
      name: definition.name,
      title: definition.title,
      description: definition.description,
      inputSchema: jsonSchemaOf(definition.listedInput ?? input, "input"),
      outputSchema: jsonSchemaOf(definition.output, "output"),
      annotations: { title: definition.title, ...definition.annotations },
    },
    graceMs: definition.graceMs ?? 0,
    run: (args, context) => definition.run(args as z.output<Input>, context),
  };
}

/** The fields of one of the client's input schemas, each described for the model. Every field needs a description. */
function described<Shape extends Record<string, z.ZodType>>(schema: z.ZodObject<Shape>, descriptions: { [K in keyof Shape]: string }): Shape {
  const shape: Record<string, z.ZodType> = {};
  for (const key of Object.keys(schema.shape)) shape[key] = schema.shape[key]!.describe(descriptions[key]!);
  // Every key of `Shape` was copied with its own schema, only described.
  return shape as Shape;
}

const idOf = (what: string) => ({ id: IdSchema.describe(`The ${what}'s numeric id`) });

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: true };
const CREATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
const CHANGE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };

const TIMESTAMP = "a date and time formatted YYYY-MM-DD HH:MM:SS, in the server's time zone";

const linkFieldDescriptions = {
  url: "The long URL to shorten, http or https",
  custom: "Custom alias, the part after the domain: 3 to 50 letters, digits or hyphens. Omit for a generated one",
  password: "Visitors must enter this password before they are redirected",
  domain: "A branded domain of the account, as listed by list_domains (e.g. https://go.example.com). Omit for the service's own",
  expiry: `When the link stops redirecting: ${TIMESTAMP}`,
  geotarget: "Send visitors from a country elsewhere: [{location: country name, link: URL}]",
  devicetarget: "Send visitors on a device elsewhere: [{device: e.g. iPhone, Android, link: URL}]",
  parameters: "Query parameters appended to the long URL: [{name, value}]",
  utm: "Campaign tracking fields appended to the long URL as utm_source, utm_medium, utm_campaign, utm_term and utm_content: {source, medium, campaign, term, content}, each optional",
  metatitle: "Title shown when the short link is shared",
  metadescription: "Description shown when the short link is shared",
};

const LinkCreateInput = z.strictObject(
  described(LinkCreateSchema, {
    ...linkFieldDescriptions,
    type: "Redirect type: direct (default), frame, splash, the id of a custom splash page, or overlay-<id> for a call-to-action overlay",
  }),
);

const LinkUpdateInput = z.strictObject({
  ...idOf("link"),
  ...described(LinkUpdateSchema, {
    ...linkFieldDescriptions,
    url: "The long URL, required even when it does not change (then give the current one, from get_link); the short URL stays the same",
    type: "Redirect type: direct, frame or splash",
  }),
});

const REUSE_DESCRIPTION =
  "true: if the account already has a link to exactly this long URL (with the alias and domain asked for, if any), " +
  "answer with it instead of making another (reused: true). Use it when the user wants one short link per URL, e.g. when " +
  "a request may be repeated. Default false: always make a new link";

const ShortenLinkInput = LinkCreateInput.extend({ reuse: z.boolean().optional().describe(REUSE_DESCRIPTION) });

const ShortenLinksInput = z.strictObject({
  urls: z
    .array(z.string().describe("A long URL, http or https"))
    .min(1, "must hold at least one URL")
    .max(BULK_MAX_URLS, `must hold at most ${BULK_MAX_URLS} URLs: split the list and call shorten_links once per part`)
    .describe(`The long URLs to shorten, 1 to ${BULK_MAX_URLS}; each gets its own result, in the same order`),
  domain: LinkCreateInput.shape.domain,
  utm: LinkCreateInput.shape.utm,
  reuse: z.boolean().optional().describe(REUSE_DESCRIPTION),
});

const FindLinksInput = z.strictObject({
  text: z
    .string()
    .optional()
    .describe(
      "What to look for: an alias, a short URL (with or without https://, query or trailing slash), a long URL, or words " +
        "found in the alias, title, short or long URL, or description (case-insensitive; every word must match). Omit to list links",
    ),
  order: LinkListSchema.shape.order.describe(
    "date (default): exact matches first, then the best matches, newest first among equals; click: most clicked first (clicks as of the index's last read)",
  ),
  limit: PaginationSchema.shape.limit
    .unwrap()
    .max(FIND_MAX_RESULTS, `must be at most ${FIND_MAX_RESULTS}`)
    .optional()
    .describe(`How many links to return at most (default ${FIND_DEFAULT_RESULTS}, at most ${FIND_MAX_RESULTS})`),
});

const PageInput = z.strictObject(described(PaginationSchema, { limit: "Items per page (default 15)", page: "Page number, from 1" }));

const qrFieldDescriptions = {
  type: "What the QR code holds: link, text, email, phone, sms, wifi or vcard",
  data:
    "Depends on type. link: a URL string. text: a string (at most 1000 characters). phone: a phone number string. " +
    "email: {email, subject?, body?}. sms: {phone, message?}. wifi: {ssid, password?, encryption?: WPA, WEP or nopass}. " +
    "vcard: {firstname?, lastname?, organization?, phone?, cell?, fax?, email?, site?, street?, city?, state?, country?, zip?} with at least a name or organization",
  background: "Background colour written rgb(r,g,b); default white",
  foreground: "Foreground colour written rgb(r,g,b); default black",
  logo: "URL of a .png or .jpg image placed in the middle",
  name: "A name to find the QR code by",
};

const QrCodeCreateInput = z.strictObject(described(QrCodeCreateSchema, qrFieldDescriptions));

/**
 * The same input with `data`'s shapes spelled out, so that clients which build a form from the
 * schema (the Inspector, n8n's MCP Client) can send an object for e-mail, SMS, Wi-Fi and vCard codes.
 * Which shape goes with which `type` is the client's rule, checked before anything is sent.
 */
const QrCodeCreateListedInput = QrCodeCreateInput.extend({
  data: z
    .union([
      z.string().describe("link: a URL; text: up to 1000 characters; phone: a phone number"),
      QR_DATA_SCHEMAS.email.describe("email: the address, with an optional subject and body"),
      QR_DATA_SCHEMAS.sms.describe("sms: the phone number, with an optional message"),
      QR_DATA_SCHEMAS.wifi.describe("wifi: the network name (ssid), with an optional password and encryption"),
      QR_DATA_SCHEMAS.vcard.describe("vcard: a contact card with at least a first name, last name or organization"),
    ])
    .describe(qrFieldDescriptions.data),
});

/** The user's fields but its API key, listed one by one so that a new field is shown only once it is added here. */
function withoutKey(user: User): UserWithoutKey {
  const { id, email, username, avatar, status, expires, registered, planid } = user;
  return { id, email, username, avatar, status, expires, registered, planid };
}

/** Searches the server's link index (the whole account once its first sync is done): no page is read per call. */
async function findLinks({ text, order, limit }: z.output<typeof FindLinksInput>, { links: serverIndex, signal }: ToolContext) {
  const wanted = limit ?? FIND_DEFAULT_RESULTS;
  await serverIndex.beforeLookup(signal);
  const query = text ?? "";
  let found: IndexedLink[];
  let matches: number;
  if (order === "click") {
    // With no text every link scores the same, and the search appends in one pass.
    const pool = serverIndex.index.search(query, query.trim() === "" ? Number.MAX_SAFE_INTEGER : FIND_CLICK_ORDER_POOL);
    found = [...pool.links].sort((a, b) => b.clicks - a.clicks).slice(0, wanted);
    matches = pool.matches;
  } else {
    ({ links: found, matches } = serverIndex.index.search(query, wanted));
  }
  return { links: found, matches, index: serverIndex.freshness() };
}

/**
 * createOrReuse's lookup without its sync, for while the first sync runs (a sync then would wait
 * for the whole walk): the newest indexed link to exactly this URL, with the alias and domain asked for.
 */
/** One URL shortened or reused, as `reuse` says. The client checks the input before any request. */
async function shortenOne(input: ClientLinkCreateInput, reuse: boolean, { client, links: serverIndex, signal }: ToolContext) {
  if (!reuse) return { ...(await client.links.create(input, { signal })), reused: false };
  await serverIndex.index.load();
  if (!serverIndex.index.freshness().complete) void serverIndex.startFirstSync();
  return createOrReuse(client, serverIndex.index, input, { signal, maxSweepPages: SWEEP_PAGES_PER_CALL });
}

async function shortenLink({ reuse, ...input }: z.output<typeof ShortenLinkInput>, context: ToolContext) {
  const answer = await shortenOne(input, reuse === true, context);
  const freshness = context.links.index.freshness();
  if (reuse && !answer.reused && !freshness.complete) return { ...answer, note: context.links.freshness().summary };
  return answer;
}

/** What a failure of one URL says: its fields for bad input, else the tool error's text. */
function itemError(error: unknown): string {
  if (error instanceof ValidationError) return error.issues.slice(0, 10).map((issue) => `${capped(issue.field, 100)}: ${capped(issue.message, 200)}`).join("; ");
  return describeFailure(error, "shorten_links");
}

/** A failure that ends the batch: the same would happen to every URL after it (or the call is over). */
function endsBatch(error: unknown): boolean {
  if (error instanceof ValidationError || error instanceof NotFoundError) return false;
  // The server refused this one URL (an alias taken, say): the next may go. A rate limit past the
  // wait, a refused key or plan, an unreachable or unreadable server would refuse the rest too.
  return !(error instanceof ApiError) || error instanceof RateLimitError || error instanceof AuthenticationError || error instanceof PermissionError;
}

/**
 * Shortens the URLs one after another, paced by the client. Stops starting new ones at the call's
 * deadline, at its cancellation, or at a failure every later URL would share (rate limit past the
 * wait, refused key, unreachable server): those left are answered as skipped, saying why.
 */
async function shortenLinks({ urls, reuse, ...shared }: z.output<typeof ShortenLinksInput>, context: ToolContext) {
  const results: Array<z.output<typeof BulkResultOutput>> = [];
  let stopped: string | undefined;
  for (const url of urls) {
    const shown = capped(url);
    if (stopped === undefined && Date.now() >= context.deadlineAt) {
      stopped = "not tried: the call reached its deadline; call shorten_links again with the URLs skipped";
    }
    if (stopped === undefined && context.signal.aborted) stopped = "not tried: the call was cancelled";
    if (stopped !== undefined) {
      results.push({ url: shown, status: "skipped", error: stopped });
      continue;
    }
    try {
      const answer = await shortenOne({ ...shared, url }, reuse === true, context);
      results.push({ url: shown, status: answer.reused ? "reused" : "created", id: answer.id, shorturl: answer.shorturl });
    } catch (error) {
      const aborted = error instanceof AbortedError;
      const text = aborted
        ? "stopped before the server answered (deadline or cancellation): it may or may not have been created; check with find_links"
        : itemError(error);
      results.push({ url: shown, status: "failed", error: text });
      if (aborted || endsBatch(error)) stopped = `not tried after an earlier URL failed: ${capped(text, 300)}`;
    }
  }
  const tally = (status: z.output<typeof BulkResultOutput>["status"]) => results.filter((result) => result.status === status).length;
  return { results, created: tally("created"), reused: tally("reused"), failed: tally("failed"), skipped: tally("skipped") };
}

/** A QR code's answer with its image (PNG as image content), or with why there is none. */
async function withQrImage(structured: Record<string, unknown>, link: string, { client, signal }: ToolContext): Promise<AnswerWithImage> {
  const image = await fetchQrImage(link, client.baseUrl, signal);
  if (!image.ok) return new AnswerWithImage({ ...structured, image: { unavailable: image.reason } }, undefined);
  return new AnswerWithImage({ ...structured, image: { url: image.url, bytes: image.png.length } }, { data: image.png.toString("base64"), mimeType: "image/png" });
}

export const TOOLS: readonly ToolDefinition[] = [
  define({
    name: "shorten_link",
    title: "Shorten a link",
    description:
      "Creates a short link for a long URL and returns its id and short URL. Each call creates a new link unless " +
      "reuse is true, which gives back the account's existing link to the same URL (reused says which happened). " +
      "Only url is required; for several URLs use shorten_links.",
    input: ShortenLinkInput,
    output: ShortenedLinkOutput,
    annotations: CREATE,
    run: shortenLink,
  }),
  define({
    name: "shorten_links",
    title: "Shorten several links",
    description:
      `Shortens up to ${BULK_MAX_URLS} long URLs in one call, one after another within the service's rate limit, with the same ` +
      "domain, UTM fields and reuse choice for each. Answers one result per URL, in order: created, reused, failed (with the " +
      "field and why) or skipped (not tried, e.g. the call ran out of time or was rate limited: call again with those URLs).",
    input: ShortenLinksInput,
    output: ShortenedLinksOutput,
    annotations: CREATE,
    graceMs: BULK_GRACE_MS,
    run: shortenLinks,
  }),
  define({
    name: "find_links",
    title: "Find links",
    description:
      "Finds the account's short links by alias, short URL, long URL, or words of their title, alias, URLs or description, " +
      "searching an index of every link of the account (no page limit). Without text, lists the newest (or most clicked) links. " +
      "Returns each link's id, short URL, long URL, alias, title and click count, and how fresh the index is (index.summary: " +
      "while it is first being built, older links may be missing); use get_link for a link's statistics.",
    input: FindLinksInput,
    output: FoundLinksOutput,
    annotations: READ,
    run: findLinks,
  }),
  define({
    name: "get_link",
    title: "Get a link with its statistics",
    description:
      "Returns one short link's details (long URL, title, expiry, targeting) and its statistics: clicks, unique clicks, " +
      "top countries, referrers, browsers and operating systems. Needs the link's id (from find_links or shorten_link).",
    input: z.strictObject(idOf("link")),
    output: LinkWithStatsOutput,
    annotations: READ,
    run: ({ id }, { client, signal }) => client.links.get(id, { signal }),
  }),
  define({
    name: "update_link",
    title: "Update a link",
    description:
      "Changes an existing short link: its long URL, alias, password, expiry, targeting, redirect type or share title. " +
      "Give the id, the long URL (the API requires it on every update; get_link shows the current one) and the fields " +
      "to change; the new values replace the old ones.",
    input: LinkUpdateInput,
    output: CreatedLinkOutput,
    annotations: CHANGE,
    run: ({ id, ...changes }, { client, signal }) => client.links.update(id, changes, { signal }),
  }),
  define({
    name: "delete_link",
    title: "Delete a link",
    description: "Deletes a short link for good: it stops redirecting and its statistics are lost. Ask the user before deleting.",
    input: z.strictObject(idOf("link")),
    output: MessageOutput,
    annotations: CHANGE,
    run: ({ id }, { client, signal }) => client.links.delete(id, { signal }),
  }),
  define({
    name: "create_qr_code",
    title: "Create a QR code",
    description:
      "Creates a QR code (for a URL, text, e-mail, phone, SMS, Wi-Fi network or contact card) and returns its id, its " +
      "link (the image is at that link with .png or .svg appended) and the QR code's image.",
    input: QrCodeCreateInput,
    listedInput: QrCodeCreateListedInput,
    output: CreatedQrCodeOutput,
    annotations: CREATE,
    // The input schema has checked `type`; the client checks `data` against it before anything is sent.
    run: async (args, context) => {
      const created = await context.client.qrCodes.create(args as QrCodeCreateInput, { signal: context.signal });
      return withQrImage(created, created.link, context);
    },
  }),
  define({
    name: "get_qr_code",
    title: "Get a QR code with its image",
    description: "Returns one QR code (id from list_qr_codes or create_qr_code): its link, name, scans and scan statistics, and its image.",
    input: z.strictObject(idOf("QR code")),
    output: QrCodeWithStatsOutput,
    annotations: READ,
    run: async ({ id }, context) => {
      const qrCode = await context.client.qrCodes.get(id, { signal: context.signal });
      return withQrImage(qrCode, qrCode.details.link, context);
    },
  }),
  define({
    name: "list_qr_codes",
    title: "List QR codes",
    description: "Lists the account's QR codes (id, link, scans, name), one page at a time; morePages says whether another page follows.",
    input: PageInput,
    output: QrCodePageOutput,
    annotations: READ,
    run: async (args, { client, signal }) => {
      const page = await client.qrCodes.list(args, { signal });
      return { qrCodes: page.items, ...pagePosition(page, args.page ?? 1) };
    },
  }),
  define({
    name: "list_domains",
    title: "List branded domains",
    description:
      "Lists the account's branded domains, which shorten_link and update_link accept as domain, one page at a time; morePages says whether another page follows.",
    input: PageInput,
    output: DomainPageOutput,
    annotations: READ,
    run: async (args, { client, signal }) => {
      const page = await client.domains.list(args, { signal });
      return { domains: page.items, ...pagePosition(page, args.page ?? 1) };
    },
  }),
  define({
    name: "get_account",
    title: "Get the account",
    description: "Returns the account this server acts as: id, username, e-mail, status and when its plan expires.",
    output: AccountOutput,
    annotations: READ,
    run: (_args, { client, signal }) => client.account.get({ signal }),
  }),

  // Plans and users: administrators' tools, offered only with `--admin` and an administrator's key.
  define({
    name: "list_plans",
    title: "List plans (admin)",
    description: "Lists the service's subscription plans with their prices and limits. Administrators only.",
    output: PlansOutput,
    annotations: READ,
    admin: true,
    run: async (_args, { client, signal }) => ({ plans: await client.plans.list({ signal }).toArray() }),
  }),
  define({
    name: "subscribe_user_to_plan",
    title: "Put a user on a plan (admin)",
    description: "Subscribes a user to a plan (ids from list_users and list_plans). Administrators only.",
    input: z.strictObject({
      planId: IdSchema.describe("The plan's id"),
      userId: IdSchema.describe("The user's id"),
      ...described(PlanSubscribeSchema, {
        type: "Billing period: monthly, yearly or lifetime",
        expiration: `When the subscription ends: ${TIMESTAMP}. Omit to derive it from type`,
      }),
    }),
    output: MessageOutput,
    annotations: CHANGE,
    admin: true,
    run: ({ planId, userId, ...subscription }, { client, signal }) => client.plans.subscribe(planId, userId, subscription, { signal }),
  }),
  define({
    name: "list_users",
    title: "List users (admin)",
    description: "Lists the service's users, optionally only admins, free or pro users, or those with an e-mail address. Administrators only.",
    input: z.strictObject(described(UserListSchema, { filter: "Only admin, free or pro users", email: "Only users whose e-mail address matches this" })),
    output: UsersOutput,
    annotations: READ,
    admin: true,
    run: async (args, { client, signal }) => ({ users: (await client.users.list(args, { signal }).toArray()).map(withoutKey) }),
  }),
  define({
    name: "get_user",
    title: "Get a user (admin)",
    description: "Returns one user's account and plan. Administrators only.",
    input: z.strictObject(idOf("user")),
    output: UserOutput,
    annotations: READ,
    admin: true,
    run: async ({ id }, { client, signal }) => withoutKey(await client.users.get(id, { signal })),
  }),
  define({
    name: "create_user",
    title: "Create a user (admin)",
    description: "Creates a user account. Each call creates a new user. Administrators only.",
    input: z.strictObject(
      described(UserCreateSchema, {
        username: "3 to 20 letters or digits",
        email: "The user's e-mail address",
        password: "At least 5 characters",
        planid: "The plan to put the user on (from list_plans)",
        expiration: `When the plan ends: ${TIMESTAMP}`,
      }),
    ),
    output: CreatedUserOutput,
    annotations: CREATE,
    admin: true,
    run: (args, { client, signal }) => client.users.create(args, { signal }),
  }),
  define({
    name: "delete_user",
    title: "Delete a user (admin)",
    description: "Deletes a user account for good. Ask before deleting. Administrators only.",
    input: z.strictObject(idOf("user")),
    output: MessageOutput,
    annotations: CHANGE,
    admin: true,
    run: ({ id }, { client, signal }) => client.users.delete(id, { signal }),
  }),
];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((tool) => [tool.name, tool]));
