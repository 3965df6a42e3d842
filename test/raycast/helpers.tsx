import type { ReactElement } from "react";
import { act, create, type ReactTestInstance, type ReactTestRenderer } from "react-test-renderer";
import type { Sandbox } from "@linkshort/sandbox";
import { mock, selection } from "./raycast-api-mock";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// react-test-renderer announces its deprecation, and hooks settle outside act() between polls of
// waitFor; neither says anything about the extension.
const consoleError = console.error;
console.error = (...args: unknown[]) => {
  const text = String(args[0]);
  if (text.includes("react-test-renderer is deprecated") || text.includes("not wrapped in act(")) return;
  consoleError(...args);
};

export { mock, selection };
export { sandboxForRaycast, setPreferences, useSandbox } from "./account";

export async function render(element: ReactElement): Promise<ReactTestRenderer> {
  let renderer: ReactTestRenderer | undefined;
  await act(async () => {
    renderer = create(element);
  });
  return renderer!;
}

/** Waits (letting React and the network run) until `condition` holds. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  }
}

export async function press(handler: unknown, ...args: unknown[]): Promise<void> {
  await act(async () => {
    await (handler as (...a: unknown[]) => unknown)(...args);
  });
}

export const byType = (root: ReactTestInstance, type: string) => root.findAll((node) => node.type === type);
export const byTitle = (root: ReactTestInstance, type: string, title: string) => {
  const found = root.find((node) => node.type === type && node.props.title === title);
  return found;
};

/** What Raycast hands Action.SubmitForm's onSubmit: every field's value by its id. */
export function formValues(root: ReactTestInstance): Record<string, unknown> {
  const fields = root.findAll((node) => typeof node.type === "string" && node.type.startsWith("Form.") && node.props.id !== undefined);
  return Object.fromEntries(fields.map((node) => [node.props.id, node.props.value]));
}

export async function submit(root: ReactTestInstance): Promise<void> {
  const action = root.find((node) => (node.type as unknown) === "Action.SubmitForm");
  await press(action.props.onSubmit, formValues(root));
}

export interface SentRequest {
  method: string;
  url: string;
  body: unknown;
}

/**
 * Records what the extension sends over HTTP (it uses the global fetch), passing every request on
 * to the real network unless `answer` returns a response of its own for it.
 */
export function recordFetches(answer?: (url: string) => Response | undefined): { sent: SentRequest[]; restore: () => void } {
  const realFetch = globalThis.fetch;
  const sent: SentRequest[] = [];
  const spy = jest.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    let body: unknown = init?.body;
    if (typeof body === "string") {
      try {
        body = JSON.parse(body);
      } catch {
        // not JSON: kept as text
      }
    }
    sent.push({ method: init?.method ?? "GET", url, body });
    return answer?.(url) ?? realFetch(input, init);
  });
  return { sent, restore: () => spy.mockRestore() };
}

/** A field of a rendered form (an element with an id, unlike dropdown items), by its title. */
export const field = (root: ReactTestInstance, title: string) =>
  root.find((node) => typeof node.type === "string" && node.type.startsWith("Form.") && node.props.id !== undefined && node.props.title === title);

/** Creates something through the API as the sandbox's normal user would, outside the extension. */
export async function apiCall(sandbox: Sandbox, method: string, path: string, body?: unknown, apiKey = sandbox.userKey): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** The API key of a new user with nothing yet (no links, no QR codes), made by the admin through the API. */
export async function newEmptyAccountKey(sandbox: Sandbox, username: string): Promise<string> {
  await apiCall(sandbox, "POST", "/api/user/add", { username, email: `${username}@example.com`, password: "secret-pass" }, sandbox.adminKey);
  return sandbox.store.state.users.find((user) => user.username === username)!.apiKey;
}
