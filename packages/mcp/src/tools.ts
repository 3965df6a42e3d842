/**
 * The tools: each is one client call. Inputs are the client's own zod schemas with a description
 * per field for the model; the client checks every value again and does all HTTP, paging and pacing.
 *
 * Every definition and every JSON Schema is built once, when the module loads: a server is made per
 * HTTP request, and zod keeps each described schema in its global registry for good, so describing
 * per server would grow memory with every request.
 */
import {
  IdSchema,
  LinkCreateSchema,
  LinkListSchema,
  LinkUpdateSchema,
  PagePromise,
  PaginationSchema,
  PlanSubscribeSchema,
  QR_DATA_SCHEMAS,
  QrCodeCreateSchema,
  UserCreateSchema,
  UserListSchema,
  type Link,
  type LinkShortClient,
  type QrCodeCreateInput,
  type User,
} from "@linkshort/client";
import type { Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/v4";
import {
  AccountOutput,
  DomainOutput,
  LinkDetailsOutput,
  LinkOutput,
  pageOutput,
  pagePosition,
  PlanOutput,
  QrCodeOutput,
  StatisticsOutput,
  UserOutput,
  type UserWithoutKey,
} from "./outputs";

/** At most this many links are read by one find_links call (10 pages of 100). */
export const FIND_SCAN_LIMIT = 1000;
const FIND_PAGE_SIZE = 100;
const FIND_DEFAULT_RESULTS = 20;
const FIND_MAX_RESULTS = 100;

/** What a tool's work gets: the client, and the signal that ends the call (cancelled or past its deadline). */
export interface ToolContext {
  client: LinkShortClient;
  signal: AbortSignal;
}

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
  run(args: unknown, context: ToolContext): Promise<Record<string, unknown>>;
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
  run(args: z.output<Input>, context: ToolContext): Promise<Record<string, unknown>>;
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

const FindLinksInput = z.strictObject({
  text: z
    .string()
    .optional()
    .describe("Text to look for, case-insensitive, in each link's long URL, short URL, alias and title. Omit to list links"),
  order: LinkListSchema.shape.order.describe("date: newest first (default); click: most clicked first"),
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

function matches(link: Link, needle: string): boolean {
  return [link.longurl, link.shorturl, link.alias, link.title].some((field) => field.toLowerCase().includes(needle));
}

/** The user's fields but its API key, listed one by one so that a new field is shown only once it is added here. */
function withoutKey(user: User): UserWithoutKey {
  const { id, email, username, avatar, status, expires, registered, planid } = user;
  return { id, email, username, avatar, status, expires, registered, planid };
}

const CreatedLink = z.object({ id: z.number(), shorturl: z.string() });
const Message = z.object({ message: z.string() });

const FindLinksOutput = z.object({
  links: z.array(LinkOutput),
  scanned: z.number().describe("How many links were examined"),
  complete: z.boolean().describe("False when the search stopped at the limit or the scan bound: more matches may exist"),
});

/**
 * Reads the account's links page by page until `wanted` match, FIND_SCAN_LIMIT were read or the list
 * ends. Never asks for a page it will not use, and stops between pages once the call is cancelled.
 */
async function findLinks({ text, order, limit }: z.output<typeof FindLinksInput>, { client, signal }: ToolContext) {
  const wanted = limit ?? FIND_DEFAULT_RESULTS;
  const needle = text?.trim().toLowerCase() ?? "";
  const links: Link[] = [];
  let scanned = 0;
  for (let pageNumber = 1; ; pageNumber += 1) {
    const page = await client.links.list({ order, limit: FIND_PAGE_SIZE, page: pageNumber }, { signal });
    for (const [index, link] of page.items.entries()) {
      scanned += 1;
      if (matches(link, needle)) links.push(link);
      if (links.length >= wanted) {
        const more = index < page.items.length - 1 || !PagePromise.isLastPage(page, pageNumber);
        return { links, scanned, complete: !more };
      }
    }
    if (PagePromise.isLastPage(page, pageNumber)) return { links, scanned, complete: true };
    if (scanned >= FIND_SCAN_LIMIT) return { links, scanned, complete: false };
  }
}

export const TOOLS: readonly ToolDefinition[] = [
  define({
    name: "shorten_link",
    title: "Shorten a link",
    description:
      "Creates a short link for a long URL and returns its id and short URL. Each call creates a new link, " +
      "so call it once per URL; use find_links first to reuse an existing one. Only url is required.",
    input: LinkCreateInput,
    output: CreatedLink,
    annotations: CREATE,
    run: (args, { client, signal }) => client.links.create(args, { signal }),
  }),
  define({
    name: "find_links",
    title: "Find links",
    description:
      "Finds the account's short links whose long URL, short URL, alias or title contains the given text, reading " +
      `page after page (up to ${FIND_SCAN_LIMIT} links per call). Without text, lists the newest (or most clicked) links. ` +
      "Returns each link's id, short URL, long URL, alias, title and click count; use get_link for its statistics.",
    input: FindLinksInput,
    output: FindLinksOutput,
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
    output: z.object({ details: LinkDetailsOutput, stats: StatisticsOutput }),
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
    output: CreatedLink,
    annotations: CHANGE,
    run: ({ id, ...changes }, { client, signal }) => client.links.update(id, changes, { signal }),
  }),
  define({
    name: "delete_link",
    title: "Delete a link",
    description: "Deletes a short link for good: it stops redirecting and its statistics are lost. Ask the user before deleting.",
    input: z.strictObject(idOf("link")),
    output: Message,
    annotations: CHANGE,
    run: ({ id }, { client, signal }) => client.links.delete(id, { signal }),
  }),
  define({
    name: "create_qr_code",
    title: "Create a QR code",
    description:
      "Creates a QR code (for a URL, text, e-mail, phone, SMS, Wi-Fi network or contact card) and returns its id and " +
      "its link; the image is at that link with .png or .svg appended.",
    input: QrCodeCreateInput,
    listedInput: QrCodeCreateListedInput,
    output: z.object({ id: z.number(), link: z.string() }),
    annotations: CREATE,
    // The input schema has checked `type`; the client checks `data` against it before anything is sent.
    run: (args, { client, signal }) => client.qrCodes.create(args as QrCodeCreateInput, { signal }),
  }),
  define({
    name: "list_qr_codes",
    title: "List QR codes",
    description: "Lists the account's QR codes (id, link, scans, name), one page at a time; morePages says whether another page follows.",
    input: PageInput,
    output: z.object({ qrCodes: z.array(QrCodeOutput), ...pageOutput }),
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
    output: z.object({ domains: z.array(DomainOutput), ...pageOutput }),
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
    output: z.object({ plans: z.array(PlanOutput) }),
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
    output: Message,
    annotations: CHANGE,
    admin: true,
    run: ({ planId, userId, ...subscription }, { client, signal }) => client.plans.subscribe(planId, userId, subscription, { signal }),
  }),
  define({
    name: "list_users",
    title: "List users (admin)",
    description: "Lists the service's users, optionally only admins, free or pro users, or those with an e-mail address. Administrators only.",
    input: z.strictObject(described(UserListSchema, { filter: "Only admin, free or pro users", email: "Only users whose e-mail address matches this" })),
    output: z.object({ users: z.array(UserOutput) }),
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
    output: z.object({ id: z.number(), email: z.string().optional(), username: z.string().optional() }),
    annotations: CREATE,
    admin: true,
    run: (args, { client, signal }) => client.users.create(args, { signal }),
  }),
  define({
    name: "delete_user",
    title: "Delete a user (admin)",
    description: "Deletes a user account for good. Ask before deleting. Administrators only.",
    input: z.strictObject(idOf("user")),
    output: Message,
    annotations: CHANGE,
    admin: true,
    run: ({ id }, { client, signal }) => client.users.delete(id, { signal }),
  }),
];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((tool) => [tool.name, tool]));
