import { Action, ActionPanel, Clipboard, Form, showToast, Toast, useNavigation } from "@raycast/api";
import { useForm } from "@raycast/utils";
import { formatTimestamp, REDIRECT_TYPES, type LinkCreateInput } from "@linkshort/client/core";
import { getClient, getPreferences } from "../api/client";
import { showFailure } from "../api/failure";
import { linkValidation } from "../api/validation";
import { useDomains } from "../hooks/useDomains";
import { LinkResult } from "./LinkResult";

export interface LinkFormValues {
  url: string;
  custom: string;
  domain: string;
  type: string;
  password: string;
  expiry: Date | null;
  metatitle: string;
  metadescription: string;
}

/** The client's input from the form: only what was filled in, the expiry in the local time zone. */
export function toLinkInput(values: LinkFormValues): LinkCreateInput {
  const input: LinkCreateInput = { url: values.url.trim() };
  if (values.custom.trim()) input.custom = values.custom.trim();
  if (values.domain) input.domain = values.domain;
  if (values.type && values.type !== "direct") input.type = values.type as LinkCreateInput["type"];
  if (values.password) input.password = values.password;
  if (values.expiry) input.expiry = formatTimestamp(values.expiry, Intl.DateTimeFormat().resolvedOptions().timeZone);
  if (values.metatitle.trim()) input.metatitle = values.metatitle.trim();
  if (values.metadescription.trim()) input.metadescription = values.metadescription.trim();
  return input;
}

/** Creates a link (or, given `linkId`, updates it); on success copies the short URL and shows it. */
export function LinkForm({
  initialUrl = "",
  linkId,
  onSaved,
}: {
  initialUrl?: string;
  linkId?: number;
  onSaved?: () => void;
}) {
  const { push, pop } = useNavigation();
  const { data: domains, isLoading } = useDomains();
  const { defaultDomain } = getPreferences();
  const { handleSubmit, itemProps } = useForm<LinkFormValues>({
    initialValues: {
      url: initialUrl,
      custom: "",
      domain: defaultDomain?.trim() ?? "",
      type: "direct",
      password: "",
      expiry: null,
      metatitle: "",
      metadescription: "",
    },
    validation: linkValidation,
    async onSubmit(values) {
      const toast = await showToast({ style: Toast.Style.Animated, title: linkId ? "Saving…" : "Shortening…" });
      try {
        const input = toLinkInput(values);
        const { shorturl } = linkId
          ? await getClient().links.update(linkId, input as never)
          : await getClient().links.create(input);
        await Clipboard.copy(shorturl);
        toast.style = Toast.Style.Success;
        toast.title = linkId ? "Saved, short URL copied" : "Short URL copied";
        toast.message = shorturl;
        onSaved?.();
        if (linkId) pop();
        else push(<LinkResult shorturl={shorturl} longurl={input.url} />);
      } catch (error) {
        await toast.hide();
        await showFailure(error, linkId ? "Could not save the link" : "Could not shorten the link", () =>
          handleSubmit(values),
        );
      }
    },
  });
  return (
    <Form
      isLoading={isLoading}
      actions={
        <ActionPanel>
          <Action.SubmitForm title={linkId ? "Save Link" : "Shorten Link"} onSubmit={handleSubmit} />
        </ActionPanel>
      }
    >
      <Form.TextField title="URL" placeholder="https://example.com/a/long/page" {...itemProps.url} />
      <Form.TextField
        title="Custom Alias"
        placeholder="spring-sale (3 to 50 letters, digits or hyphens)"
        {...itemProps.custom}
      />
      <Form.Dropdown title="Domain" {...itemProps.domain}>
        <Form.Dropdown.Item value="" title="Default" />
        {(domains ?? []).map((domain) => (
          <Form.Dropdown.Item key={domain.id} value={domain.domain} title={domain.domain} />
        ))}
      </Form.Dropdown>
      <Form.Dropdown title="Redirect Type" {...itemProps.type}>
        {REDIRECT_TYPES.map((type) => (
          <Form.Dropdown.Item key={type} value={type} title={type.charAt(0).toUpperCase() + type.slice(1)} />
        ))}
      </Form.Dropdown>
      <Form.PasswordField title="Password" placeholder="Optional" {...itemProps.password} />
      <Form.DatePicker title="Expiry" {...itemProps.expiry} />
      <Form.Separator />
      <Form.TextField title="Meta Title" {...itemProps.metatitle} />
      <Form.TextArea title="Meta Description" {...itemProps.metadescription} />
    </Form>
  );
}
