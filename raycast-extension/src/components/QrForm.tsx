import { Action, ActionPanel, Form, showToast, Toast, useNavigation } from "@raycast/api";
import type { ReactNode } from "react";
import { useForm } from "@raycast/utils";
import { QR_TYPES, WIFI_ENCRYPTIONS, type QrCode, type QrType } from "@linkshort/client/core";
import { getClient } from "../api/client";
import { showFailure } from "../ui/failure";
import {
  emptyQrValues,
  QR_TYPE_TITLES,
  qrFormIssue,
  toQrCreateInput,
  toQrUpdateInput,
  WIFI_ENCRYPTION_TITLES,
  type QrFormValues,
} from "../values/qr-values";
import { QrImage } from "./QrImage";

/**
 * Creates a QR code of any type with its own fields and colours (showing the service's image of it
 * after), or, given `qr`, updates one. The service does not return a QR code's content, so an
 * update asks for it again.
 */
export function QrForm({ initialLink = "", qr, onSaved }: { initialLink?: string; qr?: QrCode; onSaved?: () => void }) {
  const { push, pop } = useNavigation();
  const { handleSubmit, itemProps, values, setValidationError } = useForm<QrFormValues>({
    initialValues: emptyQrValues(initialLink),
    async onSubmit(submitted) {
      // Raycast submits only the fields on screen: the others keep their empty values.
      const form = { ...emptyQrValues(), ...submitted };
      const issue = qrFormIssue(form);
      if (issue) {
        setValidationError(issue.field, issue.message);
        await showToast({ style: Toast.Style.Failure, title: "Check the QR code's fields", message: issue.message });
        return;
      }
      await (qr ? updateQrCode(qr, form, { onSaved, pop }) : createQrCode(form, { onSaved, push }));
    },
  });

  const type: QrType = QR_TYPES.find((candidate) => candidate === values.type) ?? "link";
  const field = (name: keyof QrFormValues, title: string, placeholder?: string) => (
    <Form.TextField key={name} title={title} placeholder={placeholder} {...itemProps[name]} />
  );
  return (
    <Form
      navigationTitle={qr ? `Update ${qr.name || "QR Code"}` : "Create QR Code"}
      actions={
        <ActionPanel>
          <Action.SubmitForm title={qr ? "Update QR Code" : "Create QR Code"} onSubmit={handleSubmit} />
        </ActionPanel>
      }
    >
      {qr ? (
        <Form.Description
          title="Content"
          text="The service does not return a QR code's content: enter it again. Its link and scans stay."
        />
      ) : null}
      <Form.Dropdown title="Type" {...itemProps.type}>
        {QR_TYPES.map((value) => (
          <Form.Dropdown.Item key={value} value={value} title={QR_TYPE_TITLES[value]} />
        ))}
      </Form.Dropdown>
      {qr ? null : field("name", "Name", "Optional")}
      {type === "link" ? <Form.TextField title="URL" placeholder="https://example.com" {...itemProps.text} /> : null}
      {type === "text" ? <Form.TextArea title="Text" {...itemProps.text} /> : null}
      {type === "wifi"
        ? [
            field("ssid", "Network Name (SSID)"),
            <Form.Dropdown key="encryption" title="Encryption" {...itemProps.encryption}>
              {WIFI_ENCRYPTIONS.map((value) => (
                <Form.Dropdown.Item key={value} value={value} title={WIFI_ENCRYPTION_TITLES[value]} />
              ))}
            </Form.Dropdown>,
            values.encryption === "nopass" ? null : (
              <Form.PasswordField key="wifiPassword" title="Network Password" {...itemProps.wifiPassword} />
            ),
          ]
        : null}
      {type === "vcard"
        ? [
            field("firstname", "First Name"),
            field("lastname", "Last Name"),
            field("organization", "Organization"),
            field("phone", "Phone", "+1 555 0100"),
            field("cell", "Mobile"),
            field("email", "Email"),
            field("site", "Website", "https://example.com"),
            field("street", "Street"),
            field("city", "City"),
            field("state", "State"),
            field("zip", "ZIP Code"),
            field("country", "Country"),
          ]
        : null}
      {type === "email" ? [field("email", "Email"), field("subject", "Subject")] : null}
      {type === "phone" || type === "sms" ? field("phone", "Phone", "+1 555 0100") : null}
      {type === "sms" || type === "email" ? <Form.TextArea title="Message" {...itemProps.message} /> : null}
      <Form.Separator />
      {field("foreground", "Foreground Colour", "#000000 or rgb(0,0,0); black when empty")}
      {field("background", "Background Colour", "#ffffff or rgb(255,255,255); white when empty")}
      {field("logo", "Logo", "Optional: URL of a .png or .jpg")}
    </Form>
  );
}

interface AfterSubmit {
  onSaved?: () => void;
  push?: (view: ReactNode) => void;
  pop?: () => void;
}

/** Creates the form's QR code and shows the service's image of it; a failure offers to try again. */
async function createQrCode(form: QrFormValues, after: AfterSubmit): Promise<void> {
  try {
    const input = toQrCreateInput(form);
    const { link } = await getClient().qrCodes.create(input);
    await showToast({ style: Toast.Style.Success, title: "QR code created", message: link });
    after.onSaved?.();
    after.push?.(<QrImage title={form.name.trim() || QR_TYPE_TITLES[input.type]} link={link} />);
  } catch (error) {
    await showFailure(error, "Could not create the QR code", () => createQrCode(form, after));
  }
}

/** Updates `existing` with the form's content and colours; a failure offers to try again. */
async function updateQrCode(existing: QrCode, form: QrFormValues, after: AfterSubmit): Promise<void> {
  try {
    await getClient().qrCodes.update(existing.id, toQrUpdateInput(form));
    await showToast({ style: Toast.Style.Success, title: "QR code updated", message: existing.link });
    after.onSaved?.();
    after.pop?.();
  } catch (error) {
    await showFailure(error, "Could not update the QR code", () => updateQrCode(existing, form, after));
  }
}
