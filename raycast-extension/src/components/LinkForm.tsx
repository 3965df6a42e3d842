import { Action, ActionPanel, Clipboard, Form, Icon, showToast, Toast, useNavigation } from "@raycast/api";
import { useForm, usePromise } from "@raycast/utils";
import type { ReactNode } from "react";
import { REDIRECT_TYPES, type Link } from "@linkshort/client/core";
import { getClient, getPreferences } from "../api/client";
import { shorten } from "../api/shorten";
import { showFailure } from "../ui/failure";
import {
  LINK_TEXT_FIELDS,
  linkValuesFromDetails,
  newLinkValues,
  toLinkInput,
  toLinkUpdate,
  type LinkFormValues,
} from "../values/link-values";
import { linkValidation, targetsError } from "../values/validation";
import { useDomains } from "../hooks/useDomains";
import { LinkResult } from "./LinkResult";

const TARGETING_HINT = "One a line: name = https://… (e.g. Canada = https://example.ca)";

/** Shorten Link with Options: a new link, the domain preset from the Default Domain preference. */
export function LinkForm({ initialUrl = "" }: { initialUrl?: string }) {
  return <LinkFields initial={newLinkValues(initialUrl, getPreferences().defaultDomain)} />;
}

/** Edit Link: loads the link with `links.get`, shows every field the API returns, saves only changes. */
export function EditLinkForm({ link, onSaved }: { link: Pick<Link, "id" | "shorturl">; onSaved?: () => void }) {
  // The form offers Retry itself; the toast says what went wrong and opens the preferences if they are to blame.
  const { data, isLoading, error, revalidate } = usePromise((id: number) => getClient().links.get(id), [link.id], {
    onError: (failure) => showFailure(failure, "Could not load the link"),
  });
  if (!data) {
    return (
      <Form
        isLoading={isLoading}
        actions={
          error ? (
            <ActionPanel>
              <Action title="Retry" icon={Icon.ArrowClockwise} onAction={revalidate} />
            </ActionPanel>
          ) : undefined
        }
      >
        {error ? <Form.Description title="Could not load" text={`${link.shorturl}: ${error.message}`} /> : null}
      </Form>
    );
  }
  return (
    <LinkFields initial={linkValuesFromDetails(data.details, getClient().baseUrl)} linkId={link.id} onSaved={onSaved} />
  );
}

function LinkFields({ initial, linkId, onSaved }: { initial: LinkFormValues; linkId?: number; onSaved?: () => void }) {
  const editing = linkId !== undefined;
  const { push, pop } = useNavigation();
  const { data: domains, isLoading } = useDomains();
  const { handleSubmit, itemProps } = useForm<LinkFormValues>({
    initialValues: initial,
    validation: {
      ...linkValidation,
      // The API keeps a link's alias and expiry when given none: they can be changed, not removed.
      custom: (value) =>
        editing && !value?.trim()
          ? "A link keeps its alias: type a new one to change it"
          : linkValidation.custom(value),
      expiry: (value) =>
        editing && initial.expiry && !value ? "The service cannot remove an expiry: pick a new date" : undefined,
      geotarget: (value) => targetsError(value ?? "", "location"),
      devicetarget: (value) => targetsError(value ?? "", "device"),
    },
    async onSubmit(values) {
      if (linkId !== undefined) await saveFromForm(linkId, initial, values, { onSaved, pop });
      else await shortenFromForm(values, { onSaved, push });
    },
  });

  const knownDomains = (domains ?? []).map((domain) => domain.domain);
  if (initial.domain && !knownDomains.includes(initial.domain)) knownDomains.unshift(initial.domain);
  return (
    <Form
      isLoading={isLoading}
      navigationTitle={editing ? "Edit Link" : "Shorten Link with Options"}
      actions={
        <ActionPanel>
          <Action.SubmitForm title={editing ? "Save Link" : "Shorten Link"} onSubmit={handleSubmit} />
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
        <Form.Dropdown.Item value="" title={editing ? "The Service's Own Domain" : "Default"} />
        {knownDomains.map((domain) => (
          <Form.Dropdown.Item key={domain} value={domain} title={domain} />
        ))}
      </Form.Dropdown>
      <Form.Dropdown
        title="Redirect Type"
        info={
          editing
            ? "The service does not say a link's redirect type: it stays as it is unless you pick one."
            : undefined
        }
        {...itemProps.type}
      >
        {editing ? <Form.Dropdown.Item value="" title="Unchanged" /> : null}
        {REDIRECT_TYPES.map((type) => (
          <Form.Dropdown.Item key={type} value={type} title={type.charAt(0).toUpperCase() + type.slice(1)} />
        ))}
      </Form.Dropdown>
      <Form.PasswordField
        title="Password"
        placeholder={editing ? "Unchanged" : "Optional"}
        info={
          editing ? "The service does not say whether a link has a password: type one to set or replace it." : undefined
        }
        {...itemProps.password}
      />
      <Form.DatePicker title="Expiry" {...itemProps.expiry} />
      <Form.Separator />
      {LINK_TEXT_FIELDS.map(({ name, title, control, placeholder, info }) =>
        control === "area" ? (
          <Form.TextArea key={name} title={title} placeholder={placeholder} info={info} {...itemProps[name]} />
        ) : (
          <Form.TextField key={name} title={title} placeholder={placeholder} info={info} {...itemProps[name]} />
        ),
      )}
      <Form.TextArea title="Country Targeting" placeholder={TARGETING_HINT} {...itemProps.geotarget} />
      <Form.TextArea
        title="Device Targeting"
        placeholder="iPhone = https://apps.apple.com/…"
        {...itemProps.devicetarget}
      />
      <Form.Separator />
      <Form.Description
        title="Campaign (UTM)"
        text={
          editing
            ? "The service does not return a link's parameters: a field you fill in is set (or replaced), an empty one stays as it is."
            : "Added to the link's parameters as utm_source, utm_medium, …"
        }
      />
      <Form.TextField title="UTM Source" placeholder="newsletter" {...itemProps.utmSource} />
      <Form.TextField title="UTM Medium" placeholder="email" {...itemProps.utmMedium} />
      <Form.TextField title="UTM Campaign" placeholder="spring-sale" {...itemProps.utmCampaign} />
      <Form.TextField title="UTM Term" {...itemProps.utmTerm} />
      <Form.TextField title="UTM Content" {...itemProps.utmContent} />
    </Form>
  );
}

interface AfterSubmit {
  onSaved?: () => void;
  push?: (view: ReactNode) => void;
  pop?: () => void;
}

/** Shortens the form's link, copies its short URL and shows it; a failure offers to try again. */
async function shortenFromForm(values: LinkFormValues, after: AfterSubmit): Promise<void> {
  const toast = await showToast({ style: Toast.Style.Animated, title: "Shortening…" });
  try {
    const input = toLinkInput(values);
    // The form shows the domain it sends (preset to the Default Domain): none picked is the service's own.
    const { shorturl } = await shorten(input, { reuse: false, onDefaultDomain: false });
    await Clipboard.copy(shorturl);
    toast.style = Toast.Style.Success;
    toast.title = "Short URL copied";
    toast.message = shorturl;
    after.onSaved?.();
    after.push?.(<LinkResult shorturl={shorturl} longurl={input.url} />);
  } catch (error) {
    await toast.hide();
    await showFailure(error, "Could not shorten the link", () => shortenFromForm(values, after));
  }
}

/** Saves what changed of link `id` (nothing sent when nothing changed); a failure offers to try again. */
async function saveFromForm(
  id: number,
  initial: LinkFormValues,
  values: LinkFormValues,
  after: AfterSubmit,
): Promise<void> {
  const client = getClient();
  const input = toLinkUpdate(initial, values, client.baseUrl);
  if (Object.keys(input).length === 1 && input.url === initial.url) {
    await showToast({ style: Toast.Style.Success, title: "Nothing changed" });
    after.pop?.();
    return;
  }
  const toast = await showToast({ style: Toast.Style.Animated, title: "Saving…" });
  try {
    const { shorturl } = await client.links.update(id, input);
    toast.style = Toast.Style.Success;
    toast.title = "Link saved";
    toast.message = shorturl;
    after.onSaved?.();
    after.pop?.();
  } catch (error) {
    await toast.hide();
    await showFailure(error, "Could not save the link", () => saveFromForm(id, initial, values, after));
  }
}
