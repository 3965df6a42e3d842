import type { ReactTestInstance } from "react-test-renderer";
import SearchLinks from "../../raycast-extension/src/search-links";
import { apiCall, byTitle, byType, field, mock, press, recordFetches, render, submit, useSandbox, waitFor } from "./helpers";

// A Default Domain is set: it is for new links only and must never reach an edit.
const sandbox = useSandbox({ preferences: { defaultDomain: "https://go.demo.example" } });

const storedLink = (id: number) => sandbox.store.state.links.find((link) => link.id === id)!;

async function createLink(alias: string) {
  const created = await apiCall(sandbox, "POST", "/api/url/add", {
    url: `https://example.com/${alias}`,
    custom: alias,
    type: "frame",
    password: "secret1",
    expiry: "2099-06-01 10:00:00",
    metatitle: "Old title",
    metadescription: "Old description",
    geotarget: [{ location: "Canada", link: "https://example.ca" }],
    devicetarget: [{ device: "iPhone", link: "https://apps.apple.com/app" }],
  });
  return Number(created.id);
}

/** Opens Search Links and the Edit Link form of the link `id`, as a user pressing cmd+E on it. */
async function openEditForm(id: number, longUrl: string): Promise<ReactTestInstance> {
  const list = await render(<SearchLinks />);
  await waitFor(() => byType(list.root, "List.Item").some((item) => item.props.id === String(id)), "the link in the list");
  const item = byType(list.root, "List.Item").find((candidate) => candidate.props.id === String(id))!;
  const form = await render(byTitle(item, "Action.Push", "Edit Link").props.target);
  await waitFor(() => byType(form.root, "Form.TextField").length > 0 && field(form.root, "URL").props.value === longUrl, "the link's URL in the form");
  list.unmount();
  return form.root;
}

const puts = (sent: Array<{ method: string; url: string; body: unknown }>) => sent.filter((request) => request.method === "PUT");

describe("Edit Link", () => {
  it("loads the link and prefills every field the API returns", async () => {
    const id = await createLink("edit-prefill");
    const form = await openEditForm(id, storedLink(id).url);
    expect(field(form, "URL").props.value).toBe("https://example.com/edit-prefill");
    expect(field(form, "Custom Alias").props.value).toBe("edit-prefill");
    expect(field(form, "Domain").props.value).toBe(""); // the service's own, not the Default Domain preference
    expect(field(form, "Expiry").props.value).toEqual(new Date(2099, 5, 1, 10, 0, 0));
    expect(field(form, "Meta Title").props.value).toBe("Old title");
    expect(field(form, "Meta Description").props.value).toBe("Old description");
    expect(field(form, "Country Targeting").props.value).toBe("canada = https://example.ca");
    expect(field(form, "Device Targeting").props.value).toBe("iphone = https://apps.apple.com/app");
    // Not returned by the API: shown as "unchanged", never as a value the link may not have.
    expect(field(form, "Redirect Type").props.value).toBe("");
    expect(field(form, "Password").props.value).toBe("");
  });

  it("an edit that changes only the title sends only the title (and the URL the API requires)", async () => {
    const id = await createLink("edit-title");
    const before = { ...storedLink(id) };
    const form = await openEditForm(id, storedLink(id).url);
    const { sent, restore } = recordFetches();
    try {
      await press(field(form, "Meta Title").props.onChange, "New title");
      await submit(form);
      await waitFor(() => mock.popped === 1, "the form to close");
    } finally {
      restore();
    }
    expect(puts(sent).map((request) => request.body)).toEqual([{ url: "https://example.com/edit-title", metatitle: "New title" }]);
    expect(storedLink(id)).toEqual({ ...before, metatitle: "New title" });
    expect(mock.toasts.at(-1)).toMatchObject({ style: "SUCCESS", title: "Link saved", message: `${sandbox.baseUrl}/edit-title` });
  });

  it("moving a link to a branded domain sends only the domain; an untouched form sends nothing", async () => {
    const id = await createLink("edit-domain");
    const form = await openEditForm(id, storedLink(id).url);
    const { sent, restore } = recordFetches();
    try {
      await submit(form);
      expect(mock.toasts.at(-1)).toMatchObject({ title: "Nothing changed" });
      expect(puts(sent)).toEqual([]);
      await press(field(form, "Domain").props.onChange, "https://go.demo.example");
      await submit(form);
      await waitFor(() => puts(sent).length === 1 && mock.toasts.at(-1)?.title === "Link saved", "the save");
    } finally {
      restore();
    }
    expect(puts(sent)[0]!.body).toEqual({ url: "https://example.com/edit-domain", domain: "https://go.demo.example" });
    expect(storedLink(id)).toMatchObject({ domain: "https://go.demo.example", alias: "edit-domain", type: "frame", metatitle: "Old title" });
  });

  it("an alias or expiry cannot be removed: the field says so and nothing is sent", async () => {
    const id = await createLink("edit-clear");
    const form = await openEditForm(id, storedLink(id).url);
    const { sent, restore } = recordFetches();
    try {
      await press(field(form, "Custom Alias").props.onChange, "");
      await press(field(form, "Expiry").props.onChange, null);
      await press(field(form, "Country Targeting").props.onChange, "Canada = not a url");
      await submit(form);
    } finally {
      restore();
    }
    expect(field(form, "Custom Alias").props.error).toBe("A link keeps its alias: type a new one to change it");
    expect(field(form, "Expiry").props.error).toBe("The service cannot remove an expiry: pick a new date");
    expect(field(form, "Country Targeting").props.error).toBe("line 1: the link must be a valid http or https URL");
    expect(puts(sent)).toEqual([]);
  });
});
