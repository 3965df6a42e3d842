/**
 * The tools: each is one client call. Inputs are the client's own zod schemas with a description
 * per field for the model; the client checks every value again and does all HTTP, paging and pacing.
 */
import {
  IdSchema,
  LinkCreateSchema,
  LinkListSchema,
  LinkUpdateSchema,
  PaginationSchema,
  PlanSubscribeSchema,
  QrCodeCreateSchema,
  UserCreateSchema,
  UserListSchema,
  type Link,
  type LinkShortClient,
  type QrCodeCreateInput,
  type User,
} from "@linkshort/client";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/v4";
import { describeFailure } from "./failures";
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

const pageDescriptions = { limit: "Items per page (default 15)", page: "Page number, from 1" };

const QrCodeCreateInput = z.strictObject(
  described(QrCodeCreateSchema, {
    type: "What the QR code holds: link, text, email, phone, sms, wifi or vcard",
    data:
      "Depends on type. link: a URL string. text: a string (at most 1000 characters). phone: a phone number string. " +
      "email: {email, subject?, body?}. sms: {phone, message?}. wifi: {ssid, password?, encryption?: WPA, WEP or nopass}. " +
      "vcard: {firstname?, lastname?, organization?, phone?, cell?, fax?, email?, site?, street?, city?, state?, country?, zip?} with at least a name or organization",
    background: "Background colour written rgb(r,g,b); default white",
    foreground: "Foreground colour written rgb(r,g,b); default black",
    logo: "URL of a .png or .jpg image placed in the middle",
    name: "A name to find the QR code by",
  }),
);

function result(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
}

/** Runs one client call as a tool: its value as structured content, any failure as a tool error. */
function tool<Args>(client: LinkShortClient, name: string, work: (args: Args) => Promise<Record<string, unknown>>) {
  return async (args: Args): Promise<CallToolResult> => {
    try {
      return result(await work(args));
    } catch (error) {
      return { content: [{ type: "text", text: client.redact(describeFailure(error, name)) }], isError: true };
    }
  };
}

function matches(link: Link, needle: string): boolean {
  return [link.longurl, link.shorturl, link.alias, link.title].some((field) => field.toLowerCase().includes(needle));
}

/** The user's fields but its API key, listed one by one so that a new field is shown only once it is added here. */
function withoutKey(user: User): UserWithoutKey {
  const { id, email, username, avatar, status, expires, registered, planid } = user;
  return { id, email, username, avatar, status, expires, registered, planid };
}

export function registerTools(server: McpServer, client: LinkShortClient): void {

  server.registerTool(
    "shorten_link",
    {
      title: "Shorten a link",
      description:
        "Creates a short link for a long URL and returns its id and short URL. Each call creates a new link, " +
        "so call it once per URL; use find_links first to reuse an existing one. Only url is required.",
      inputSchema: LinkCreateInput,
      outputSchema: { id: z.number(), shorturl: z.string() },
      annotations: CREATE,
    },
    tool(client, "shorten_link", (args) => client.links.create(args)),
  );

  server.registerTool(
    "find_links",
    {
      title: "Find links",
      description:
        "Finds the account's short links whose long URL, short URL, alias or title contains the given text, reading " +
        `page after page (up to ${FIND_SCAN_LIMIT} links per call). Without text, lists the newest (or most clicked) links. ` +
        "Returns each link's id, short URL, long URL, alias, title and click count; use get_link for its statistics.",
      inputSchema: FindLinksInput,
      outputSchema: {
        links: z.array(LinkOutput),
        scanned: z.number().describe("How many links were examined"),
        complete: z.boolean().describe("False when the search stopped at the limit or the scan bound: more matches may exist"),
      },
      annotations: READ,
    },
    tool(client, "find_links", async ({ text, order, limit }) => {
      const wanted = limit ?? FIND_DEFAULT_RESULTS;
      const needle = text?.trim().toLowerCase() ?? "";
      const links: Link[] = [];
      let scanned = 0;
      let complete = true;
      for await (const link of client.links.list({ order, limit: FIND_PAGE_SIZE })) {
        if (links.length >= wanted || scanned >= FIND_SCAN_LIMIT) {
          complete = false;
          break;
        }
        scanned += 1;
        if (matches(link, needle)) links.push(link);
      }
      return { links, scanned, complete };
    }),
  );

  server.registerTool(
    "get_link",
    {
      title: "Get a link with its statistics",
      description:
        "Returns one short link's details (long URL, title, expiry, targeting) and its statistics: clicks, unique clicks, " +
        "top countries, referrers, browsers and operating systems. Needs the link's id (from find_links or shorten_link).",
      inputSchema: z.strictObject(idOf("link")),
      outputSchema: { details: LinkDetailsOutput, stats: StatisticsOutput },
      annotations: READ,
    },
    tool(client, "get_link", ({ id }) => client.links.get(id)),
  );

  server.registerTool(
    "update_link",
    {
      title: "Update a link",
      description:
        "Changes an existing short link: its long URL, alias, password, expiry, targeting, redirect type or share title. " +
        "Give the id, the long URL (the API requires it on every update; get_link shows the current one) and the fields " +
        "to change; the new values replace the old ones.",
      inputSchema: LinkUpdateInput,
      outputSchema: { id: z.number(), shorturl: z.string() },
      annotations: CHANGE,
    },
    tool(client, "update_link", ({ id, ...changes }) => client.links.update(id, changes)),
  );

  server.registerTool(
    "delete_link",
    {
      title: "Delete a link",
      description: "Deletes a short link for good: it stops redirecting and its statistics are lost. Ask the user before deleting.",
      inputSchema: z.strictObject(idOf("link")),
      outputSchema: { message: z.string() },
      annotations: CHANGE,
    },
    tool(client, "delete_link", ({ id }) => client.links.delete(id)),
  );

  server.registerTool(
    "create_qr_code",
    {
      title: "Create a QR code",
      description:
        "Creates a QR code (for a URL, text, e-mail, phone, SMS, Wi-Fi network or contact card) and returns its id and " +
        "its link; the image is at that link with .png or .svg appended.",
      inputSchema: QrCodeCreateInput,
      outputSchema: { id: z.number(), link: z.string() },
      annotations: CREATE,
    },
    // The SDK has checked `type`; the client checks `data` against it before anything is sent.
    tool(client, "create_qr_code", (args) => client.qrCodes.create(args as QrCodeCreateInput)),
  );

  server.registerTool(
    "list_qr_codes",
    {
      title: "List QR codes",
      description: "Lists the account's QR codes (id, link, scans, name), one page at a time; morePages says whether another page follows.",
      inputSchema: z.strictObject(described(PaginationSchema, pageDescriptions)),
      outputSchema: { qrCodes: z.array(QrCodeOutput), ...pageOutput },
      annotations: READ,
    },
    tool(client, "list_qr_codes", async (args) => {
      const page = await client.qrCodes.list(args);
      return { qrCodes: page.items, ...pagePosition(page, args.page ?? 1) };
    }),
  );

  server.registerTool(
    "list_domains",
    {
      title: "List branded domains",
      description: "Lists the account's branded domains, which shorten_link and update_link accept as domain, one page at a time; morePages says whether another page follows.",
      inputSchema: z.strictObject(described(PaginationSchema, pageDescriptions)),
      outputSchema: { domains: z.array(DomainOutput), ...pageOutput },
      annotations: READ,
    },
    tool(client, "list_domains", async (args) => {
      const page = await client.domains.list(args);
      return { domains: page.items, ...pagePosition(page, args.page ?? 1) };
    }),
  );

  server.registerTool(
    "get_account",
    {
      title: "Get the account",
      description: "Returns the account this server acts as: id, username, e-mail, status and when its plan expires.",
      outputSchema: AccountOutput,
      annotations: READ,
    },
    tool(client, "get_account", () => client.account.get()),
  );
}

/** Plans and users: administrators' tools, registered only with `--admin`. */
export function registerAdminTools(server: McpServer, client: LinkShortClient): void {

  server.registerTool(
    "list_plans",
    {
      title: "List plans (admin)",
      description: "Lists the service's subscription plans with their prices and limits. Administrators only.",
      outputSchema: { plans: z.array(PlanOutput) },
      annotations: READ,
    },
    tool(client, "list_plans", async () => ({ plans: await client.plans.list().toArray() })),
  );

  server.registerTool(
    "subscribe_user_to_plan",
    {
      title: "Put a user on a plan (admin)",
      description: "Subscribes a user to a plan (ids from list_users and list_plans). Administrators only.",
      inputSchema: z.strictObject({
        planId: IdSchema.describe("The plan's id"),
        userId: IdSchema.describe("The user's id"),
        ...described(PlanSubscribeSchema, {
          type: "Billing period: monthly, yearly or lifetime",
          expiration: `When the subscription ends: ${TIMESTAMP}. Omit to derive it from type`,
        }),
      }),
      outputSchema: { message: z.string() },
      annotations: CHANGE,
    },
    tool(client, "subscribe_user_to_plan", ({ planId, userId, ...subscription }) => client.plans.subscribe(planId, userId, subscription)),
  );

  server.registerTool(
    "list_users",
    {
      title: "List users (admin)",
      description: "Lists the service's users, optionally only admins, free or pro users, or those with an e-mail address. Administrators only.",
      inputSchema: z.strictObject(
        described(UserListSchema, { filter: "Only admin, free or pro users", email: "Only users whose e-mail address matches this" }),
      ),
      outputSchema: { users: z.array(UserOutput) },
      annotations: READ,
    },
    tool(client, "list_users", async (args) => ({ users: (await client.users.list(args).toArray()).map(withoutKey) })),
  );

  server.registerTool(
    "get_user",
    {
      title: "Get a user (admin)",
      description: "Returns one user's account and plan. Administrators only.",
      inputSchema: z.strictObject(idOf("user")),
      outputSchema: UserOutput,
      annotations: READ,
    },
    tool(client, "get_user", async ({ id }) => withoutKey(await client.users.get(id))),
  );

  server.registerTool(
    "create_user",
    {
      title: "Create a user (admin)",
      description: "Creates a user account. Each call creates a new user. Administrators only.",
      inputSchema: z.strictObject(
        described(UserCreateSchema, {
          username: "3 to 20 letters or digits",
          email: "The user's e-mail address",
          password: "At least 5 characters",
          planid: "The plan to put the user on (from list_plans)",
          expiration: `When the plan ends: ${TIMESTAMP}`,
        }),
      ),
      outputSchema: { id: z.number(), email: z.string().optional(), username: z.string().optional() },
      annotations: CREATE,
    },
    tool(client, "create_user", (args) => client.users.create(args)),
  );

  server.registerTool(
    "delete_user",
    {
      title: "Delete a user (admin)",
      description: "Deletes a user account for good. Ask before deleting. Administrators only.",
      inputSchema: z.strictObject(idOf("user")),
      outputSchema: { message: z.string() },
      annotations: CHANGE,
    },
    tool(client, "delete_user", ({ id }) => client.users.delete(id)),
  );
}
