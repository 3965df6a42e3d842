import { LinkForm } from "../../raycast-extension/src/components/LinkForm";
import { byType, field, mock, press, render, submit, useSandbox, waitFor } from "./helpers";

const sandbox = useSandbox({ preferences: false });

describe("Shorten Link with Options: UTM fields", () => {
  it("writes the UTM fields into the link's parameters", async () => {
    const view = await render(<LinkForm initialUrl="https://example.com/campaign" />);
    await waitFor(() => byType(view.root, "Form.Dropdown.Item").length > 1, "the domains");
    await press(field(view.root, "Custom Alias").props.onChange, "utm-campaign");
    await press(field(view.root, "UTM Source").props.onChange, "newsletter");
    await press(field(view.root, "UTM Medium").props.onChange, "email");
    await press(field(view.root, "UTM Campaign").props.onChange, " spring-sale ");
    await submit(view.root);
    await waitFor(() => mock.pushed.length === 1, "the link made");
    const link = sandbox.store.state.links.find((candidate) => candidate.alias === "utm-campaign")!;
    expect(link.parameters).toEqual([
      { name: "utm_source", value: "newsletter" },
      { name: "utm_medium", value: "email" },
      { name: "utm_campaign", value: "spring-sale" },
    ]);
    view.unmount();
  });

  it("a UTM value the client refuses is shown on its field and nothing is sent", async () => {
    const view = await render(<LinkForm initialUrl="https://example.com/campaign-too-long" />);
    await waitFor(() => byType(view.root, "Form.Dropdown.Item").length > 1, "the domains");
    await press(field(view.root, "UTM Term").props.onChange, "x".repeat(501));
    const before = sandbox.requests.length;
    await submit(view.root);
    expect(field(view.root, "UTM Term").props.error).toBe("must be at most 500 characters");
    expect(sandbox.requests.slice(before).filter((request) => request.method === "POST")).toEqual([]);
    view.unmount();
  });
});
