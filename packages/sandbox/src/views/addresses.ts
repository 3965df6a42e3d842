/** The addresses the API hands out (short URLs, QR codes' tracked links) and what a QR code encodes. */

/** What of a QR code its addresses and content are made of. */
interface QrContent {
  code: string;
  type: string;
  data: unknown;
}

export function shortUrl(link: { domain: string | null; alias: string }, baseUrl: string): string {
  return `${link.domain ?? baseUrl}/${link.alias}`;
}

/** A QR code's tracked link: scanning it counts a scan (`/qr/{code}`). */
export function qrUrl(qr: Pick<QrContent, "code">, baseUrl: string): string {
  return `${baseUrl}/qr/${qr.code}`;
}

/** What a QR code encodes: its tracked link for links, the content itself for the rest. */
export function qrContent(qr: QrContent, baseUrl: string): string {
  const data = qr.data as Record<string, string>;
  switch (qr.type) {
    case "link":
      return qrUrl(qr, baseUrl);
    case "email":
      return `mailto:${data.email}?subject=${encodeURIComponent(data.subject ?? "")}&body=${encodeURIComponent(data.body ?? "")}`;
    case "sms":
      return `SMSTO:${data.phone}:${data.message ?? ""}`;
    case "phone":
      return `tel:${String(qr.data)}`;
    case "wifi":
      return `WIFI:T:${data.encryption ?? "WPA"};S:${data.ssid};P:${data.password ?? ""};;`;
    case "vcard":
      return [
        "BEGIN:VCARD",
        "VERSION:3.0",
        `N:${data.lastname ?? ""};${data.firstname ?? ""}`,
        `FN:${[data.firstname, data.lastname].filter(Boolean).join(" ") || data.organization || ""}`,
        data.organization ? `ORG:${data.organization}` : "",
        data.phone ? `TEL;TYPE=WORK:${data.phone}` : "",
        data.cell ? `TEL;TYPE=CELL:${data.cell}` : "",
        data.email ? `EMAIL:${data.email}` : "",
        data.site ? `URL:${data.site}` : "",
        "END:VCARD",
      ]
        .filter(Boolean)
        .join("\n");
    default:
      return String(qr.data);
  }
}
