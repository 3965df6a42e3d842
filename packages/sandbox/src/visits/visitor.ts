import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { UAParser } from "ua-parser-js";

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

export interface Visitor {
  /** English country name from the CDN's country header, e.g. "Canada", or null. */
  country: string | null;
  referrer: string;
  browser: string;
  os: string;
  /** Lower-case names the visitor's device answers to: model, vendor, OS and type ("iphone", "ios", "mobile"). */
  deviceNames: string[];
  id: string;
}

export function visitorOf(request: IncomingMessage): Visitor {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const code = (header("cf-ipcountry") ?? header("x-country") ?? "").trim().toUpperCase();
  let country: string | null = null;
  if (/^[A-Z]{2}$/.test(code) && code !== "XX") {
    try {
      country = regionNames.of(code) ?? null;
    } catch {
      country = null;
    }
  }
  const userAgent = header("user-agent") ?? "";
  const parsed = new UAParser(userAgent).getResult();
  let referrer = "Direct";
  try {
    const value = header("referer");
    if (value) referrer = new URL(value).hostname || "Direct";
  } catch {
    referrer = "Direct";
  }
  const address = (header("x-forwarded-for") ?? "").split(",")[0]?.trim() || request.socket.remoteAddress || "";
  const deviceNames = [parsed.device.model, parsed.device.vendor, parsed.os.name, parsed.device.type ?? (userAgent ? "desktop" : undefined)]
    .filter((name): name is string => Boolean(name))
    .map((name) => name.toLowerCase());
  return {
    country,
    referrer,
    browser: parsed.browser.name ?? "Unknown",
    os: parsed.os.name ?? "Unknown",
    deviceNames,
    id: createHash("sha256").update(`${address}\n${userAgent}`).digest("hex").slice(0, 16),
  };
}

/** Where a visit goes: geo-targeting first, then device targeting, then the long URL; parameters appended. */
/** What of a link decides where its visits go. */
interface LinkTargets {
  url: string;
  geotarget: Array<{ location: string; link: string }>;
  devicetarget: Array<{ device: string; link: string }>;
  parameters: Array<{ name: string; value: string }>;
}

export function destinationFor(link: LinkTargets, visitor: Visitor): string {
  const geo = visitor.country && link.geotarget.find((target) => target.location.toLowerCase() === visitor.country!.toLowerCase());
  const device = link.devicetarget.find((target) => visitor.deviceNames.includes(target.device.toLowerCase()));
  const target = geo ? geo.link : device ? device.link : link.url;
  if (link.parameters.length === 0) return target;
  const url = new URL(target);
  for (const parameter of link.parameters) url.searchParams.set(parameter.name, parameter.value);
  return url.toString();
}
