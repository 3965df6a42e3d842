/**
 * The one rule for the tools that destroy something (a tool with a `confirmation` question:
 * delete_links, update_links, delete_user): what counts as the person's yes, and what stops the call.
 *
 * - An answer that is not a yes (a decline, a cancel, anything unreadable) always stops the call,
 *   whatever the client declared it can do.
 * - A yes counts only as the answer to the question this server asked for this very call: the
 *   question goes out with a signed request state naming the tool and its arguments, and an accept
 *   arriving without that state, or with the state of another call, is no answer.
 * - With no answer that counts, the person is asked, when the client can ask; a client that cannot
 *   ask gets the tool run, its description having told the model to ask first.
 */
import {
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequiredResult,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { randomBytes } from "node:crypto";
import { canonicalJson, type AskedFor, type ToolDefinition } from "../tools/define";

export type ConfirmationCodec = RequestStateCodec<AskedFor>;

/** How long the person has to answer (the request state expires with it). */
const ANSWER_WITHIN_SECONDS = 10 * 60;

const MIN_KEY_BYTES = 32;

let processCodec: ConfirmationCodec | undefined;
let lastKeyed: { key: Uint8Array | string; codec: ConfirmationCodec } | undefined;

/**
 * What signs and checks the request state of the questions. Every server instance that may receive
 * an answer must share the key: without one, the process's own random key (every round of a flow
 * reaches the same process over stdio and over this package's HTTP server). Kept, not made anew for
 * each server (one per HTTP request).
 */
export function confirmationCodec(key?: Uint8Array | string): ConfirmationCodec {
  if (key === undefined) return (processCodec ??= createRequestStateCodec<AskedFor>({ key: randomBytes(MIN_KEY_BYTES), ttlSeconds: ANSWER_WITHIN_SECONDS }));
  if (lastKeyed?.key === key) return lastKeyed.codec;
  const bytes = typeof key === "string" ? Buffer.byteLength(key) : key.byteLength;
  if (bytes < MIN_KEY_BYTES) throw new RangeError(`requestStateKey: must be at least ${MIN_KEY_BYTES} bytes (it has ${bytes})`);
  lastKeyed = { key, codec: createRequestStateCodec<AskedFor>({ key, ttlSeconds: ANSWER_WITHIN_SECONDS }) };
  return lastKeyed.codec;
}

const CONFIRMATION = "confirm";

/** What the tool does once the person says yes, in the form's and the refusal's words. */
const deletes = (tool: ToolDefinition) => tool.name.startsWith("delete");

const confirmationForm = (tool: ToolDefinition) => ({
  type: "object" as const,
  properties: { [CONFIRMATION]: { type: "boolean" as const, title: deletes(tool) ? "Yes, delete it" : "Yes, make the change", default: false } },
  required: [CONFIRMATION],
});

/** Whether the person behind a client with these capabilities can be asked a yes-or-no question. */
export function canAskThePerson(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  // `elicitation: {}` (2025-06-18) means forms; later clients name the modes they take.
  return elicitation !== undefined && (Object.keys(elicitation).length === 0 || elicitation.form !== undefined);
}

const notDone = (tool: ToolDefinition): CallToolResult => ({
  content: [
    {
      type: "text",
      text: `Not done: the user did not confirm ${tool.name}, so nothing was ${deletes(tool) ? "deleted" : "changed"}. Do not call it again unless the user asks.`,
    },
  ],
  isError: true,
});

/**
 * Whether `tool` may run with `args` on this request: `undefined` when it may; otherwise the
 * question to put to the person (`input_required`, which the SDK turns into an elicitation for a
 * 2025-11-25 client over stdio) or the answer that nothing was done. The request state was checked
 * by the SDK against `codec` before the handler ran (a tampered or expired one never gets here); one
 * issued for another call is refused here, the same way.
 */
export async function confirmationNeeded(
  tool: ToolDefinition,
  args: unknown,
  ctx: ServerContext,
  capabilities: ClientCapabilities | undefined,
  codec: ConfirmationCodec,
): Promise<CallToolResult | InputRequiredResult | undefined> {
  const question = tool.confirmation?.(args);
  if (question === undefined) return undefined;
  const thisCall: AskedFor = { tool: tool.name, arguments: canonicalJson(args) };
  const askedFor = ctx.mcpReq.requestState<AskedFor>();
  if (askedFor !== undefined && (askedFor.tool !== thisCall.tool || askedFor.arguments !== thisCall.arguments)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid or expired requestState: it was issued for another tool call", {
      reason: "invalid_request_state",
    });
  }
  const answer = inputResponse(ctx.mcpReq.inputResponses, CONFIRMATION);
  const unreadable = ctx.mcpReq.droppedInputResponseKeys?.includes(CONFIRMATION) === true;
  const accepted = answer.kind === "elicit" && answer.action === "accept" ? answer : undefined;
  if (unreadable || (answer.kind !== "missing" && !accepted)) return notDone(tool);
  if (accepted && askedFor !== undefined) return accepted.content?.[CONFIRMATION] === true ? undefined : notDone(tool);
  if (!canAskThePerson(capabilities)) return undefined;
  return inputRequired({
    inputRequests: { [CONFIRMATION]: inputRequired.elicit({ mode: "form", message: question, requestedSchema: confirmationForm(tool) }) },
    requestState: await codec.mint(thisCall),
  });
}
