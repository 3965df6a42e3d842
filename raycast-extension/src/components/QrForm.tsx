import { Action, ActionPanel, Form, showToast, Toast, useNavigation } from "@raycast/api";
import { useForm } from "@raycast/utils";
import { useRef } from "react";
import { QR_TYPES, type QrCodeCreateInput, type QrType } from "@linkshort/client/core";
import { getClient } from "../api/client";
import { showFailure } from "../api/failure";
import { qrDataError } from "../api/validation";
import { QrImage } from "./QrImage";

export interface QrFormValues {
  type: string;
  name: string;
  text: string;
  email: string;
  subject: string;
  phone: string;
  message: string;
  ssid: string;
  wifiPassword: string;
  firstname: string;
  lastname: string;
  organization: string;
}

const TYPE_TITLES: Record<QrType, string> = {
  link: "Link",
  text: "Text",
  email: "Email",
  phone: "Phone Call",
  sms: "SMS",
  wifi: "Wi-Fi Network",
  vcard: "Contact Card",
};

const compact = (values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== ""));

/** The data the client expects for each QR type, from the form's fields. */
export function qrData(values: QrFormValues): unknown {
  switch (values.type as QrType) {
    case "link":
    case "text":
      return values.text.trim();
    case "phone":
      return values.phone.trim();
    case "email":
      return compact({ email: values.email, subject: values.subject, body: values.message });
    case "sms":
      return compact({ phone: values.phone, message: values.message });
    case "wifi":
      return compact({ ssid: values.ssid, password: values.wifiPassword });
    case "vcard":
      return compact({
        firstname: values.firstname,
        lastname: values.lastname,
        organization: values.organization,
        email: values.email,
        phone: values.phone,
      });
  }
}

/** Creates a QR code of any supported type; shows its image on success. */
export function QrForm({ initialLink = "", onCreated }: { initialLink?: string; onCreated?: () => void }) {
  const { push } = useNavigation();
  // The validation below reads the chosen type; a ref breaks the cycle with useForm's own values.
  const typeRef = useRef("link");
  const { handleSubmit, itemProps, values } = useForm<QrFormValues>({
    initialValues: {
      type: "link",
      name: "",
      text: initialLink,
      email: "",
      subject: "",
      phone: "",
      message: "",
      ssid: "",
      wifiPassword: "",
      firstname: "",
      lastname: "",
      organization: "",
    },
    validation: {
      // The whole of the data is checked by the client's schema for the chosen type.
      text: (value?: string): string | undefined =>
        ["link", "text"].includes(typeRef.current)
          ? qrDataError(typeRef.current as QrType, value?.trim() ?? "")
          : undefined,
    },
    async onSubmit(form) {
      const data = qrData(form);
      const problem = qrDataError(form.type as QrType, data);
      if (problem) {
        await showToast({ style: Toast.Style.Failure, title: "Check the QR code's data", message: problem });
        return;
      }
      try {
        const input = {
          type: form.type,
          data,
          ...(form.name.trim() ? { name: form.name.trim() } : {}),
        } as QrCodeCreateInput;
        const { link } = await getClient().qrCodes.create(input);
        await showToast({ style: Toast.Style.Success, title: "QR code created", message: link });
        onCreated?.();
        push(<QrImage title={form.name.trim() || TYPE_TITLES[form.type as QrType]} content={link} />);
      } catch (error) {
        await showFailure(error, "Could not create the QR code", () => handleSubmit(form));
      }
    },
  });
  const type = values.type as QrType;
  typeRef.current = type;
  return (
    <Form
      actions={
        <ActionPanel>
          <Action.SubmitForm title="Create QR Code" onSubmit={handleSubmit} />
        </ActionPanel>
      }
    >
      <Form.Dropdown title="Type" {...itemProps.type}>
        {QR_TYPES.map((value) => (
          <Form.Dropdown.Item key={value} value={value} title={TYPE_TITLES[value]} />
        ))}
      </Form.Dropdown>
      <Form.TextField title="Name" placeholder="Optional" {...itemProps.name} />
      {type === "link" || type === "text" ? (
        <Form.TextArea title={type === "link" ? "URL" : "Text"} {...itemProps.text} />
      ) : null}
      {type === "email" || type === "vcard" ? <Form.TextField title="Email" {...itemProps.email} /> : null}
      {type === "email" ? <Form.TextField title="Subject" {...itemProps.subject} /> : null}
      {type === "phone" || type === "sms" || type === "vcard" ? (
        <Form.TextField title="Phone" {...itemProps.phone} />
      ) : null}
      {type === "sms" || type === "email" ? <Form.TextArea title="Message" {...itemProps.message} /> : null}
      {type === "wifi" ? <Form.TextField title="Network Name" {...itemProps.ssid} /> : null}
      {type === "wifi" ? <Form.PasswordField title="Network Password" {...itemProps.wifiPassword} /> : null}
      {type === "vcard" ? <Form.TextField title="First Name" {...itemProps.firstname} /> : null}
      {type === "vcard" ? <Form.TextField title="Last Name" {...itemProps.lastname} /> : null}
      {type === "vcard" ? <Form.TextField title="Organization" {...itemProps.organization} /> : null}
    </Form>
  );
}
