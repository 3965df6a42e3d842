/**
 * What clients see of the tools: JSON Schema 2020-12 only (clients whose validator knows no other
 * dialect refuse a draft-07 declaration), a typed `create_qr_code.data` that forms can fill in, and
 * no promise of list-change notifications the server never sends.
 */
import { LinkShortClient } from "@linkshort/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import Ajv2020 from "ajv/dist/2020";
import { connectInMemory } from "./in-memory";

const client = new LinkShortClient({ baseUrl: "http://127.0.0.1:9", apiKey: "schema-test-key-0123456789" });

async function connected(admin: boolean): Promise<Client> {
  const mcpClient = new Client({ name: "schema-test", version: "1.0.0" });
  await connectInMemory(mcpClient, { client, admin });
  return mcpClient;
}

let mcpClient: Client;
beforeAll(async () => {
  mcpClient = await connected(true);
});
afterAll(() => mcpClient.close());

test("every input and output schema is JSON Schema 2020-12 that a strict 2020-only validator compiles", async () => {
  const { tools } = await mcpClient.listTools();
  expect(tools).toHaveLength(17);
  for (const tool of tools) {
    for (const [which, schema] of [
      ["input", tool.inputSchema],
      ["output", tool.outputSchema],
    ] as const) {
      expect({ tool: tool.name, which, type: schema?.type }).toEqual({ tool: tool.name, which, type: "object" });
      const declared = (schema as { $schema?: string }).$schema;
      if (declared !== undefined) expect(declared).toBe("https://json-schema.org/draft/2020-12/schema");
      const ajv = new Ajv2020({ strict: true, allErrors: true });
      for (const format of ["email", "uri", "date-time"]) ajv.addFormat(format, true);
      expect(() => ajv.compile(schema as object)).not.toThrow();
    }
  }
});

test("create_qr_code.data declares the shapes it takes, for clients that build a form from the schema", async () => {
  const { tools } = await mcpClient.listTools();
  const data = (
    tools.find((tool) => tool.name === "create_qr_code")!.inputSchema.properties as Record<string, { anyOf?: Array<{ type?: string; properties?: object }> }>
  ).data!;
  const shapes = data.anyOf ?? [];
  expect(shapes.map((shape) => shape.type).sort()).toEqual(["object", "object", "object", "object", "string"]);
  const fields = shapes.filter((shape) => shape.type === "object").map((shape) => Object.keys(shape.properties ?? {}));
  expect(fields).toEqual(
    expect.arrayContaining([
      expect.arrayContaining(["email", "subject", "body"]),
      expect.arrayContaining(["phone", "message"]),
      expect.arrayContaining(["ssid", "password", "encryption"]),
      expect.arrayContaining(["firstname", "lastname", "organization"]),
    ]),
  );
});

test("the server does not announce tool-list changes, which never happen", () => {
  expect(mcpClient.getServerCapabilities()?.tools).toEqual({});
});
