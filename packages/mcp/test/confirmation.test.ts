/**
 * The confirmation before a delete binds: a "no" always stops the call, and a "yes" counts only as
 * the answer to the question this server asked for this very call (its signed request state names
 * the tool and the arguments). Spoken raw, as a client that answers on its own would, to the
 * server in memory (served as over stdio) and over Streamable HTTP (a fresh server per request, so
 * the state must be checked by every one of them); and the ordinary flows through the SDKs' clients.
 */
import { LinkShortClient } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { startHttpServer } from "../src/server/http";
import { createLinkShortMcpServer } from "../src/server/server";
import { TOOLS } from "../src/tools";
import { canonicalJson } from "../src/tools/define";
import { confirmedDelete } from "./helpers";
import { connectInMemory, serveInMemory } from "./in-memory";

const CURRENT = "2026-07-28";
const ASKS = { elicitation: { form: {} } };

interface Answer {
  result?: {
    resultType?: string;
    isError?: boolean;
    content?: Array<{ text?: string }>;
    inputRequests?: Record<string, { method: string; params: { message: string } }>;
    requestState?: unknown;
    structuredContent?: { confirmation?: string | null };
  };
  error?: { code: number; message: string };
}

interface CallOptions {
  capabilities?: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/** A client that writes its tools/call requests by hand (2026-07-28: each request carries its envelope). */
interface Wire {
  call(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<Answer>;
  close(): Promise<void>;
}

function callParams(name: string, args: Record<string, unknown>, { capabilities = {}, inputResponses, requestState }: CallOptions) {
  return {
    name,
    arguments: args,
    ...(inputResponses !== undefined ? { inputResponses } : {}),
    ...(requestState !== undefined ? { requestState } : {}),
    _meta: {
      "io.modelcontextprotocol/protocolVersion": CURRENT,
      "io.modelcontextprotocol/clientInfo": { name: "answers-on-its-own", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": capabilities,
    },
  };
}

async function inMemoryWire(client: LinkShortClient, admin: boolean, requestStateKey?: string): Promise<Wire> {
  const { clientSide, connection } = serveInMemory({ client, admin, requestStateKey });
  const waiting = new Map<number, (answer: Answer) => void>();
  clientSide.onmessage = (message: JSONRPCMessage) => {
    const { id } = message as { id?: unknown };
    if (typeof id === "number" && ("result" in message || "error" in message)) waiting.get(id)?.(message as Answer);
  };
  await clientSide.start();
  let nextId = 1;
  return {
    call: (name, args, options = {}) =>
      new Promise<Answer>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, resolve);
        clientSide.send({ jsonrpc: "2.0", id, method: "tools/call", params: callParams(name, args, options) }).catch(reject);
      }),
    close: () => connection.close(),
  };
}

async function httpWire(client: LinkShortClient, admin: boolean): Promise<Wire> {
  const server = await startHttpServer(() => createLinkShortMcpServer({ client, admin }), { port: 0, host: "127.0.0.1" });
  let nextId = 1;
  return {
    async call(name, args, options = {}) {
      const response = await fetch(server.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": CURRENT,
          "mcp-method": "tools/call",
          "mcp-name": name,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: callParams(name, args, options) }),
      });
      const text = await response.text();
      return JSON.parse(
        text.startsWith("{")
          ? text
          : (text
              .split("\n")
              .find((line) => line.startsWith("data:"))
              ?.slice(5) ?? "{}"),
      ) as Answer;
    },
    close: () => server.close(),
  };
}

let sandbox: Sandbox;
let userClient: LinkShortClient;
let adminClient: LinkShortClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 10_000, windowMs: 60_000 } });
  userClient = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
  adminClient = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey });
});

afterAll(async () => {
  await sandbox.close();
});

const linkExists = (id: number) => sandbox.store.state.links.some((link) => link.id === id);
const userExists = (id: number) => sandbox.store.state.users.some((user) => user.id === id);

let made = 0;
async function newLink(): Promise<number> {
  made += 1;
  return (await userClient.links.create({ url: `https://example.com/confirmation/${made}` })).id;
}

async function newUser(): Promise<number> {
  made += 1;
  return (await adminClient.users.create({ username: `confirm${made}`, email: `confirm${made}@example.com`, password: "secret-pass" })).id;
}

const textOf = (answer: Answer) => answer.result?.content?.map((part) => part.text ?? "").join("\n") ?? "";
const accept = { confirm: { action: "accept", content: { confirm: true } } };
const decline = { confirm: { action: "decline" } };

/** The tools that ask first, each with a way to make the thing it destroys and to tell whether it is still there. */
/** delete_links' arguments for one link, with its preview's confirmation: the call that asks the person. */
async function previewedDelete(id: number, wire: Wire): Promise<Record<string, unknown>> {
  const preview = await wire.call("delete_links", { ids: [id] });
  return { ids: [id], confirmation: preview.result?.structuredContent?.confirmation };
}

/** The tools that ask first, each with a way to make the thing it destroys, the arguments of the call that asks, and whether the thing is still there. */
const CONFIRMING = [
  { name: "delete_links", admin: false, make: newLink, args: previewedDelete, exists: linkExists },
  { name: "delete_user", admin: true, make: newUser, args: async (id: number) => ({ id }), exists: userExists },
];

/** The bulk tools ask on the call that confirms a preview only (below). */
const CONFIRMING_PREVIEWS = [
  {
    name: "update_links",
    asks: () => /^Change 1 link: set metatitle to "Asked"\? Links changed since the preview are left alone\.$/,
    args: (id: number) => ({ ids: [id], set: { metatitle: "Asked" } }),
    changed: (id: number) => sandbox.store.state.links.find((link) => link.id === id)?.metatitle === "Asked",
  },
  {
    name: "delete_links",
    asks: (id: number) => new RegExp(`^Delete short link ${id} for good\\?`),
    args: (id: number) => ({ ids: [id] }),
    changed: (id: number) => !linkExists(id),
  },
];

test("every tool that asks first is checked here", () => {
  expect(
    TOOLS.filter((tool) => tool.confirmation)
      .map((tool) => tool.name)
      .sort(),
  ).toEqual([...new Set([...CONFIRMING, ...CONFIRMING_PREVIEWS].map((tool) => tool.name))].sort());
});

describe.each(CONFIRMING_PREVIEWS)("$name, in memory", (tool) => {
  let wire: Wire;
  beforeAll(async () => {
    wire = await inMemoryWire(userClient, false);
  });
  afterAll(async () => {
    await wire.close();
  });

  test("the preview asks nothing; the call that confirms it asks the person, and only a yes to that question makes the change", async () => {
    const id = await newLink();
    const preview = await wire.call(tool.name, tool.args(id), { capabilities: ASKS });
    expect(preview.result?.resultType).not.toBe("input_required");
    const { confirmation } = (preview.result as { structuredContent: { confirmation: string } }).structuredContent;
    const confirming = { ...tool.args(id), confirmation };
    const asked = await wire.call(tool.name, confirming, { capabilities: ASKS });
    expect(asked.result?.inputRequests?.confirm?.params.message).toMatch(tool.asks(id));
    const declined = await wire.call(tool.name, confirming, {
      capabilities: ASKS,
      inputResponses: decline,
      requestState: asked.result?.requestState as string,
    });
    expect(textOf(declined)).toMatch(new RegExp(`did not confirm ${tool.name}, so nothing was (changed|deleted)`));
    expect(tool.changed(id)).toBe(false);
    const again = await wire.call(tool.name, confirming, { capabilities: ASKS });
    const accepted = await wire.call(tool.name, confirming, { capabilities: ASKS, inputResponses: accept, requestState: again.result?.requestState as string });
    expect(accepted.result?.isError).toBeFalsy();
    expect(tool.changed(id)).toBe(true);
  });
});

describe.each([
  ["in memory (served as over stdio)", inMemoryWire],
  ["over Streamable HTTP", httpWire],
] as const)("a client answering on its own, %s", (_transport, open) => {
  let user: Wire;
  let admin: Wire;
  const wireFor = (tool: { admin: boolean }) => (tool.admin ? admin : user);

  beforeAll(async () => {
    user = await open(userClient, false);
    admin = await open(adminClient, true);
  });

  afterAll(async () => {
    await user.close();
    await admin.close();
  });

  describe.each(CONFIRMING)("$name", (tool) => {
    test("a decline from a client that declared no elicitation stops the call: nothing is deleted", async () => {
      const id = await tool.make();
      const answer = await wireFor(tool).call(tool.name, await tool.args(id, wireFor(tool)), { inputResponses: decline });
      expect(answer.result?.isError).toBe(true);
      expect(textOf(answer)).toMatch(new RegExp(`did not confirm ${tool.name}, so nothing was deleted`));
      expect(tool.exists(id)).toBe(true);
    });

    test("a cancel, an answer that is no elicitation result, and one the SDK cannot read (wrapped) stop the call too", async () => {
      const id = await tool.make();
      const wrapped = { confirm: { method: "elicitation/create", result: { action: "accept", content: { confirm: true } } } };
      for (const inputResponses of [{ confirm: { action: "cancel" } }, { confirm: { roots: [] } }, wrapped]) {
        const answer = await wireFor(tool).call(tool.name, await tool.args(id, wireFor(tool)), { capabilities: ASKS, inputResponses });
        expect(textOf(answer)).toMatch(/did not confirm/);
      }
      expect(tool.exists(id)).toBe(true);
    });

    test("an accept sent on the first call, before any question, is no answer: the person is asked", async () => {
      const id = await tool.make();
      const answer = await wireFor(tool).call(tool.name, await tool.args(id, wireFor(tool)), { capabilities: ASKS, inputResponses: accept });
      expect(answer.result?.resultType).toBe("input_required");
      expect(answer.result?.inputRequests?.confirm?.method).toBe("elicitation/create");
      expect(tool.exists(id)).toBe(true);
    });

    test("asked, then answered yes with the question's state: deleted; answered no with it: kept", async () => {
      const kept = await tool.make();
      const keptArgs = await tool.args(kept, wireFor(tool));
      const askedToKeep = await wireFor(tool).call(tool.name, keptArgs, { capabilities: ASKS });
      expect(askedToKeep.result?.inputRequests?.confirm?.params.message).toContain(String(kept));
      expect(typeof askedToKeep.result?.requestState).toBe("string");
      const declined = await wireFor(tool).call(tool.name, keptArgs, {
        capabilities: ASKS,
        inputResponses: decline,
        requestState: askedToKeep.result?.requestState as string,
      });
      expect(textOf(declined)).toMatch(/did not confirm/);
      expect(tool.exists(kept)).toBe(true);

      const gone = await tool.make();
      const goneArgs = await tool.args(gone, wireFor(tool));
      const askedToDelete = await wireFor(tool).call(tool.name, goneArgs, { capabilities: ASKS });
      const accepted = await wireFor(tool).call(tool.name, goneArgs, {
        capabilities: ASKS,
        inputResponses: accept,
        requestState: askedToDelete.result?.requestState as string,
      });
      expect(accepted.error).toBeUndefined();
      expect(accepted.result?.isError).toBeFalsy();
      expect(tool.exists(gone)).toBe(false);
    });

    test("an accept of the question about one id, sent with a call for another id, is refused (-32602): nothing is deleted", async () => {
      const asked = await tool.make();
      const other = await tool.make();
      const question = await wireFor(tool).call(tool.name, await tool.args(asked, wireFor(tool)), { capabilities: ASKS });
      expect(typeof question.result?.requestState).toBe("string");
      const replayed = await wireFor(tool).call(tool.name, await tool.args(other, wireFor(tool)), {
        capabilities: ASKS,
        inputResponses: accept,
        requestState: question.result?.requestState as string,
      });
      expect(replayed.error?.code).toBe(-32602);
      expect(replayed.error?.message).toMatch(/requestState/);
      expect(tool.exists(asked)).toBe(true);
      expect(tool.exists(other)).toBe(true);
    });

    test("a yes given after ten minutes is refused (-32602): nothing is deleted", async () => {
      const id = await tool.make();
      const args = await tool.args(id, wireFor(tool));
      const question = await wireFor(tool).call(tool.name, args, { capabilities: ASKS });
      const now = Date.now();
      const clock = jest.spyOn(Date, "now").mockReturnValue(now + 10 * 60_000 + 2_000);
      try {
        const late = await wireFor(tool).call(tool.name, args, {
          capabilities: ASKS,
          inputResponses: accept,
          requestState: question.result?.requestState as string,
        });
        expect(late.error?.code).toBe(-32602);
      } finally {
        clock.mockRestore();
      }
      expect(tool.exists(id)).toBe(true);
    });

    test("a tampered state is refused (-32602): nothing is deleted", async () => {
      const asked = await tool.make();
      const other = await tool.make();
      const [askedArgs, otherArgs] = [await tool.args(asked, wireFor(tool)), await tool.args(other, wireFor(tool))];
      const question = await wireFor(tool).call(tool.name, askedArgs, { capabilities: ASKS });
      const state = question.result?.requestState as string;
      expect(typeof state).toBe("string");
      // The state with another id written into its body, its signature kept; and the state with a tail added.
      const [version, body, mac] = state.split(".") as [string, string, string];
      const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { p: { arguments: string } };
      payload.p.arguments = canonicalJson(otherArgs);
      const rewritten = `${version}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${mac}`;
      for (const [args, tampered] of [
        [otherArgs, rewritten],
        [askedArgs, `${state}-TAMPERED`],
      ] as const) {
        const answer = await wireFor(tool).call(tool.name, args, { capabilities: ASKS, inputResponses: accept, requestState: tampered });
        expect(answer.error?.code).toBe(-32602);
      }
      expect(tool.exists(asked)).toBe(true);
      expect(tool.exists(other)).toBe(true);
    });
  });

  test("the state of a question about delete_links is no answer for delete_user with the same id", async () => {
    const id = await newUser();
    const link = await newLink();
    const question = await user.call("delete_links", await previewedDelete(link, user), { capabilities: ASKS });
    expect(question.result?.resultType).toBe("input_required");
    const answer = await admin.call(
      "delete_user",
      { id },
      { capabilities: ASKS, inputResponses: accept, requestState: question.result?.requestState as string },
    );
    expect(answer.error?.code).toBe(-32602);
    expect(userExists(id)).toBe(true);
  });

  test("a client that declared no elicitation and answers nothing gets the delete, as before", async () => {
    const id = await newLink();
    const answer = await user.call("delete_links", await previewedDelete(id, user));
    expect(answer.result?.isError).toBeFalsy();
    expect(linkExists(id)).toBe(false);
  });
});

test("servers given one requestStateKey take each other's questions' answers; a server with another key refuses them", async () => {
  const key = "a key every server behind one address shares, 32+ bytes";
  const [asking, answered, stranger] = await Promise.all([
    inMemoryWire(userClient, false, key),
    inMemoryWire(userClient, false, key),
    inMemoryWire(userClient, false, "another key of at least thirty-two bytes"),
  ]);
  try {
    const id = await newLink();
    const args = await previewedDelete(id, asking);
    const question = await asking.call("delete_links", args, { capabilities: ASKS });
    const answer = { capabilities: ASKS, inputResponses: accept, requestState: question.result?.requestState as string };
    expect((await stranger.call("delete_links", args, answer)).error?.code).toBe(-32602);
    expect(linkExists(id)).toBe(true);
    expect((await answered.call("delete_links", args, answer)).result?.isError).toBeFalsy();
    expect(linkExists(id)).toBe(false);
  } finally {
    await Promise.all([asking.close(), answered.close(), stranger.close()]);
  }
  expect(() => createLinkShortMcpServer({ client: userClient, requestStateKey: "too short" })).toThrow("requestStateKey: must be at least 32 bytes (it has 9)");
});

describe("the SDKs' clients, in memory (served as over stdio)", () => {
  test("a 2026-07-28 client that takes elicitation is asked once; its yes deletes, its no keeps", async () => {
    for (const action of ["accept", "decline"] as const) {
      const client = new Client({ name: "asks", version: "1.0.0" }, { versionNegotiation: { mode: { pin: CURRENT } }, capabilities: ASKS });
      const asked: string[] = [];
      client.setRequestHandler("elicitation/create", (request) => {
        asked.push((request.params as { message: string }).message);
        return action === "accept" ? { action, content: { confirm: true } } : { action };
      });
      await connectInMemory(client, { client: userClient });
      try {
        const id = await newLink();
        const answer = await client.callTool({ name: "delete_links", arguments: await confirmedDelete(client, id) });
        expect(asked).toEqual([
          `Delete short link ${id} for good? It stops redirecting and its statistics are lost. Links changed since the preview are left alone.`,
        ]);
        expect(answer.isError === true).toBe(action === "decline");
        expect(linkExists(id)).toBe(action === "decline");
      } finally {
        await client.close();
      }
    }
  });

  test("a 2025-11-25 client that takes elicitation is asked once; its yes deletes, its no keeps", async () => {
    for (const action of ["accept", "decline"] as const) {
      const client = new LegacyClient({ name: "asks-2025", version: "1.0.0" }, { capabilities: { elicitation: {} } });
      const asked: string[] = [];
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params.message);
        return action === "accept" ? { action, content: { confirm: true } } : { action };
      });
      await connectInMemory(client, { client: userClient });
      try {
        const id = await newLink();
        const answer = await client.callTool({ name: "delete_links", arguments: await confirmedDelete(client, id) });
        expect(asked).toHaveLength(1);
        expect(answer.isError === true).toBe(action === "decline");
        expect(linkExists(id)).toBe(action === "decline");
      } finally {
        await client.close();
      }
    }
  });
});
