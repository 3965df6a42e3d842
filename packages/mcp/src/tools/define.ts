/**
 * What a tool is, and `define`, which turns a tool's description into the definition the server
 * lists and runs: each tool is one client call. Inputs are the client's own zod schemas with a
 * description per field for the model; the client checks every value again and does all HTTP,
 * paging and pacing.
 *
 * Every definition and every JSON Schema is built once, when the modules load: a server is made per
 * HTTP request, and zod keeps each described schema in its global registry for good, so describing
 * per server would grow memory with every request.
 */
import { IdSchema, type LinkShortClient } from "@linkshort/client";
import type { Tool, ToolAnnotations } from "@modelcontextprotocol/server";
import * as z from "zod/v4";
import { STATISTICS_VIEW_TOOL_META } from "../view/apps";
import type { ServerLinkIndex } from "../account/server-index";
import type { ViewData } from "../view/contract";

/** A call as a signed confirmation names it: the tool and what it binds (the checked arguments as canonical JSON, or a preview's digest). */
export interface AskedFor {
  tool: string;
  arguments: string;
}

/** Signs and opens what a confirmation names, with the key of the request state (confirmation.ts's codec); `open` throws on a state it did not sign or past its time. */
export interface ConfirmationSeal {
  mint(payload: AskedFor): Promise<string>;
  open(state: string): Promise<AskedFor>;
}

/** JSON with every object's keys sorted, so that equal arguments read the same however they were written. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** What a tool's work gets: the client, the server's link index, and the signal that ends the call (cancelled or past its deadline). */
export interface ToolContext {
  client: LinkShortClient;
  links: ServerLinkIndex;
  /** Seals what a preview binds, for the call that confirms it (update_links, delete_links). */
  seal: ConfirmationSeal;
  signal: AbortSignal;
  /** When the call's deadline passes (epoch ms): a tool that answers in parts starts no new part after it. */
  deadlineAt: number;
  /**
   * Tells the client how far a long call is (`progress` of `total`, rising), when it asked for progress
   * notifications; otherwise does nothing. Never waits and never fails.
   */
  progress(progress: number, total?: number, message?: string): void;
}

/** How often a call that waits reports how far it is, when the client asked for progress. */
const PROGRESS_EVERY_MS = 500;

/** Waits for `work`, telling the client `status()` every half second meanwhile (when it asked for progress). */
export async function reportingProgress<T>(
  work: Promise<T>,
  context: ToolContext,
  status: () => { progress: number; total?: number; message: string },
): Promise<T> {
  const report = () => {
    const { progress, total, message } = status();
    context.progress(progress, total, message);
  };
  const timer = setInterval(report, PROGRESS_EVERY_MS);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

export interface ImageContent {
  data: string;
  mimeType: "image/png";
}

export type { SeriesViewData, StatisticsViewData, ViewData, ViewRow } from "../view/contract";

/**
 * A structured answer with an image shown next to it (MCP image content), and a statistics chart
 * after it, drawn only for a client that does not show the statistics view (MCP Apps) instead;
 * `viewChart` is what the view shows in its place, sent in the result's `_meta`, which models do not read.
 */
export class AnswerWithImage {
  constructor(
    readonly structured: object,
    readonly image: ImageContent | undefined,
    readonly chart?: () => ImageContent,
    readonly viewChart?: () => ViewData,
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
  /** What tools/list shows a client that renders MCP Apps: `listing` with the statistics view, for a tool that has it. */
  listingWithApps: Tool;
  /** Time past the call's deadline this tool keeps, to answer with what it did (it watches `deadlineAt` itself). */
  graceMs: number;
  /** For a tool that destroys something: the question put to the person before it runs, when the client can ask (none for a call that changes nothing, such as a preview). */
  confirmation: ((args: unknown) => string | undefined) | undefined;
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
  /** The question to ask the person before the tool runs (a delete), when the client can ask; undefined for a call that changes nothing. */
  confirmation?: (args: z.output<Input>) => string | undefined;
  /** Its answer's statistics can be shown in the statistics view (MCP Apps). */
  statisticsView?: boolean;
  run(args: z.output<Input>, context: ToolContext): Promise<ToolOutcome>;
}

const NO_ARGUMENTS = z.strictObject({});

export function define<Input extends z.ZodType = typeof NO_ARGUMENTS>(definition: Definition<Input>): ToolDefinition {
  const input = definition.input ?? NO_ARGUMENTS;
  const { confirmation } = definition;
  const listing: Tool = {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: jsonSchemaOf(definition.listedInput ?? input, "input"),
    outputSchema: jsonSchemaOf(definition.output, "output"),
    annotations: { title: definition.title, ...definition.annotations },
  };
  return {
    name: definition.name,
    admin: definition.admin ?? false,
    changes: definition.annotations.readOnlyHint !== true,
    input,
    listing,
    listingWithApps: definition.statisticsView ? { ...listing, _meta: STATISTICS_VIEW_TOOL_META } : listing,
    graceMs: definition.graceMs ?? 0,
    confirmation: confirmation && ((args) => confirmation(args as z.output<Input>)),
    run: (args, context) => definition.run(args as z.output<Input>, context),
  };
}

/**
 * The fields of one of the client's input schemas as a tool lists them: described by the client's
 * schema, or by `overrides` where a tool says more (another tool to ask first). A field with no
 * description fails here, when the module loads: the model needs one for every field.
 */
export function described<Shape extends Record<string, z.ZodType>>(schema: z.ZodObject<Shape>, overrides: { [K in keyof Shape]?: string } = {}): Shape {
  const shape: Record<string, z.ZodType> = {};
  for (const key of Object.keys(schema.shape)) {
    const field = schema.shape[key]!;
    const description = overrides[key] ?? field.description;
    if (description === undefined) throw new Error(`The input field "${key}" has no description`);
    shape[key] = overrides[key] === undefined ? field : field.describe(description);
  }
  // Every key of `Shape` was copied with its own schema, at most described anew.
  return shape as Shape;
}

export const idOf = (what: string) => ({ id: IdSchema.describe(`The ${what}'s numeric id`) });

export const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: true };
export const CREATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
export const CHANGE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };
