import { isValidElement } from "react";
import { readFileSync } from "node:fs";
import type { ReactTestInstance } from "react-test-renderer";
import { QrForm } from "../../raycast-extension/src/components/QrForm";
import QrCodes from "../../raycast-extension/src/qr-codes";
import { apiCall, byTitle, byType, field, mock, newEmptyAccountKey, press, recordFetches, render, selection, submit, useSandbox, waitFor } from "./helpers";

const sandbox = useSandbox();
beforeEach(() => {
  selection.id = undefined;
});

const items = (root: ReactTestInstance) => byType(root, "List.Item");
const detailMarkdown = (root: ReactTestInstance) => String(byType(root, "List.Item.Detail")[0]?.props.markdown ?? "");
const pngIn = (markdown: string) => /!\[[^\]]*\]\(data:image\/png;base64,([A-Za-z0-9+/=]+)\)/.exec(markdown)?.[1];
const serviceImage = async (link: string) => Buffer.from(await (await fetch(`${link}.png`)).arrayBuffer());

async function createWifiCode(name: string) {
  const created = await apiCall(sandbox, "POST", "/api/qr/add", {
    type: "wifi",
    data: { ssid: "Cafe Guest", password: "espresso", encryption: "WPA" },
    foreground: "rgb(180,20,60)",
    background: "rgb(250,240,200)",
    name,
  });
  return { id: Number(created.id), link: String(created.link) };
}

/** QR Codes with the code `id` selected, once its detail shows an image. */
async function showDetail(id: number) {
  selection.id = String(id);
  const view = await render(<QrCodes />);
  // Drawing a QR image takes the sandbox a while on a busy machine.
  await waitFor(() => pngIn(detailMarkdown(view.root)) !== undefined, "the QR image in the detail", 60_000);
  return view;
}

// The sandbox draws PNGs with pngjs, which runs many times slower inside jest's module sandbox than
// in plain Node (seconds per image on a busy machine): the image tests get a generous timeout.
const IMAGE_TEST_MS = 120_000;

describe("QR Codes: the image is the service's own", () => {
  it(
    "a Wi-Fi QR code's image is the service's image of that code, colours and all; Copy QR Image copies it",
    async () => {
      const { id, link } = await createWifiCode("Guest Wi-Fi");
      const view = await showDetail(id);
      const service = await serviceImage(link);
      expect(Buffer.from(pngIn(detailMarkdown(view.root))!, "base64").equals(service)).toBe(true);
      expect(detailMarkdown(view.root)).not.toContain("Drawn here");
      expect(detailMarkdown(view.root)).toContain(link);

      const item = items(view.root).find((candidate) => candidate.props.id === String(id))!;
      await press(byTitle(item, "Action", "Copy QR Image").props.onAction);
      await waitFor(() => mock.clipboardFile !== undefined, "the copied file", 60_000);
      expect(mock.huds).toEqual(["Copied the QR image"]);
      expect(readFileSync(mock.clipboardFile!).equals(service)).toBe(true);
      view.unmount();
    },
    IMAGE_TEST_MS,
  );

  it(
    "when the service serves no image, a local drawing is shown and says so",
    async () => {
      const { id } = await createWifiCode("No Image Server");
      // A server that answers its QR images with an HTML 404 page.
      const { restore } = recordFetches((url) =>
        url.endsWith(".png") ? new Response("<h1>404</h1>", { status: 404, headers: { "content-type": "text/html" } }) : undefined,
      );
      try {
        const view = await showDetail(id);
        expect(detailMarkdown(view.root)).toContain("Drawn here, not the service's image");
        expect(detailMarkdown(view.root)).toContain("answered 404 (text/html)");
        view.unmount();
      } finally {
        restore();
      }
    },
    IMAGE_TEST_MS,
  );
});

describe("QR Codes: list, create, update, delete", () => {
  it("lists QR codes with their scans and shows the scans in the detail", async () => {
    const menu = sandbox.store.state.qrs.find((qr) => qr.name === "Menu")!;
    selection.id = String(menu.id);
    const view = await render(<QrCodes />);
    await waitFor(() => items(view.root).length >= 2, "the QR codes");
    expect(items(view.root).find((item) => item.props.title === "Menu")!.props.accessories).toEqual([{ text: "12 scans" }]);
    await waitFor(() => detailMarkdown(view.root).includes("**Scans:** 12"), "the scans", 20_000);
    view.unmount();
  });

  it("creates a Wi-Fi QR code with its encryption and colours, checked field by field", async () => {
    const view = await render(<QrForm />);
    await press(field(view.root, "Type").props.onChange, "wifi");
    await submit(view.root);
    expect(field(view.root, "Network Name (SSID)").props.error).toBe("must not be empty");
    await press(field(view.root, "Network Name (SSID)").props.onChange, "Cafe");
    await press(field(view.root, "Encryption").props.onChange, "WEP");
    await press(field(view.root, "Network Password").props.onChange, "espresso");
    await press(field(view.root, "Foreground Colour").props.onChange, "#ff0000");
    await press(field(view.root, "Background Colour").props.onChange, "red");
    await submit(view.root);
    expect(field(view.root, "Background Colour").props.error).toBe("must be a colour written rgb(r,g,b) with each value from 0 to 255");
    await press(field(view.root, "Background Colour").props.onChange, "rgb(255, 255, 240)");
    await submit(view.root);
    await waitFor(() => mock.pushed.length === 1, "the QR image");
    expect(sandbox.store.state.qrs.at(-1)).toMatchObject({
      type: "wifi",
      data: { ssid: "Cafe", password: "espresso", encryption: "WEP" },
      foreground: "rgb(255,0,0)",
      background: "rgb(255, 255, 240)",
    });
    view.unmount();
  });

  it("creates a contact card (vCard) from its own fields", async () => {
    const view = await render(<QrForm />);
    await press(field(view.root, "Type").props.onChange, "vcard");
    await submit(view.root);
    expect(field(view.root, "First Name").props.error).toBe("a vCard needs a first name, last name or organization");
    await press(field(view.root, "First Name").props.onChange, "Ada");
    await press(field(view.root, "Email").props.onChange, "not-an-email");
    await submit(view.root);
    expect(field(view.root, "Email").props.error).toBe("must be a valid e-mail address");
    await press(field(view.root, "Email").props.onChange, "ada@example.com");
    await press(field(view.root, "Phone").props.onChange, "+44 20 7946 0000");
    await press(field(view.root, "Organization").props.onChange, "Engines Ltd");
    await submit(view.root);
    await waitFor(() => mock.pushed.length === 1, "the QR image");
    expect(sandbox.store.state.qrs.at(-1)).toMatchObject({
      type: "vcard",
      data: { firstname: "Ada", email: "ada@example.com", phone: "+44 20 7946 0000", organization: "Engines Ltd" },
    });
    view.unmount();
  });

  it("updates a QR code's content and colours", async () => {
    const { id } = await createWifiCode("To Update");
    const list = await render(<QrCodes />);
    await waitFor(() => items(list.root).some((item) => item.props.id === String(id)), "the QR code");
    const item = items(list.root).find((candidate) => candidate.props.id === String(id))!;
    const form = await render(byTitle(item, "Action.Push", "Update QR Code").props.target);
    await press(field(form.root, "Type").props.onChange, "text");
    await press(field(form.root, "Text").props.onChange, "Closed on Mondays");
    await press(field(form.root, "Foreground Colour").props.onChange, "#000000");
    await submit(form.root);
    await waitFor(() => mock.popped === 1, "the form to close");
    expect(sandbox.store.state.qrs.find((qr) => qr.id === id)).toMatchObject({ type: "text", data: "Closed on Mondays", foreground: "rgb(0,0,0)" });
    list.unmount();
    form.unmount();
  });

  it("deletes a QR code only after confirmation", async () => {
    const { id } = await createWifiCode("To Delete");
    const view = await render(<QrCodes />);
    await waitFor(() => items(view.root).some((item) => item.props.id === String(id)), "the QR code");
    const deleteAction = () => byTitle(items(view.root).find((candidate) => candidate.props.id === String(id))!, "Action", "Delete QR Code");
    mock.alertAnswer = false;
    await press(deleteAction().props.onAction);
    expect(mock.alerts).toHaveLength(1);
    expect(sandbox.store.state.qrs.some((qr) => qr.id === id)).toBe(true);
    mock.alertAnswer = true;
    await press(deleteAction().props.onAction);
    await waitFor(() => !items(view.root).some((item) => item.props.id === String(id)), "the removal");
    expect(sandbox.store.state.qrs.some((qr) => qr.id === id)).toBe(false);
    expect(mock.toasts.at(-1)).toMatchObject({ style: "SUCCESS", title: "QR code deleted" });
    view.unmount();
  });

  it("an account with no QR codes gets an empty view that offers to create one", async () => {
    mock.preferences.apiKey = await newEmptyAccountKey(sandbox, "noqrcodes");
    const view = await render(<QrCodes />);
    await waitFor(() => byType(view.root, "List")[0]!.props.isLoading === false, "the empty list");
    expect(items(view.root)).toEqual([]);
    const empty = byType(view.root, "List.EmptyView")[0]!;
    expect(empty.props.title).toBe("No QR codes");
    expect(isValidElement(byTitle(empty, "Action.Push", "Create QR Code").props.target)).toBe(true);
    view.unmount();
  });
});
