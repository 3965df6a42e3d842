import type { ReactTestInstance } from "react-test-renderer";
import manifest from "../../raycast-extension/package.json";
import QrCodes from "../../raycast-extension/src/qr-codes";
import SearchLinks from "../../raycast-extension/src/search-links";
import { QrImage } from "../../raycast-extension/src/components/QrImage";
import { byType, render, useSandbox, waitFor } from "./helpers";

const sandbox = useSandbox({ preferences: false });

const shortcuts = (root: ReactTestInstance) =>
  root.findAll((node) => node.props.shortcut !== undefined).map((node) => ({ title: node.props.title, shortcut: node.props.shortcut }));

describe("Raycast on Windows", () => {
  it("declares both platforms", () => {
    expect(manifest.platforms).toEqual(["macOS", "Windows"]);
  });

  it("gives every shortcut of Search Links, QR Codes and the QR image a Windows form", async () => {
    const search = await render(<SearchLinks />);
    await waitFor(() => byType(search.root, "List.Item").length > 0, "the links");
    const qr = await render(<QrCodes />);
    await waitFor(() => byType(qr.root, "List.Item").length > 0, "the QR codes");
    const image = await render(<QrImage title="Poster" link={`${sandbox.baseUrl}/qr/abc`} />);
    const found = [...shortcuts(search.root), ...shortcuts(qr.root), ...shortcuts(image.root)];
    expect(found.length).toBeGreaterThan(10);
    for (const { title, shortcut } of found) {
      expect({ title, windows: shortcut.Windows?.modifiers.every((modifier: string) => modifier !== "cmd" && modifier !== "opt") }).toEqual({
        title,
        windows: true,
      });
      expect({ title, macOS: shortcut.macOS !== undefined }).toEqual({ title, macOS: true });
    }
    search.unmount();
    qr.unmount();
    image.unmount();
  });
});

describe("Install MCP Server", () => {
  it("installs linkshort-mcp with the chosen account's Service URL and API key as its environment", async () => {
    const view = await render(<SearchLinks />);
    await waitFor(() => byType(view.root, "List.Item").length > 0, "the links");
    const install = byType(view.root, "Action.InstallMCPServer")[0]!;
    expect(install.props.title).toBe("Install MCP Server");
    expect(install.props.server).toEqual({
      name: "LinkShort",
      description: expect.any(String),
      transport: "stdio",
      command: "npx",
      args: ["-y", "@linkshort/mcp"],
      env: { LINKSHORT_BASE_URL: sandbox.baseUrl, LINKSHORT_API_KEY: sandbox.userKey },
    });
    view.unmount();
  });
});
