import type { LinkShortClient } from "../src/core";
import { scripted } from "./helpers";

const link = {
  id: 7,
  alias: "abcde",
  shorturl: "https://short.example/abcde",
  longurl: "https://example.com/a",
  clicks: 3,
  title: "A",
  description: "",
  date: "2026-11-01 10:00:00",
};
const page = (name: string, items: unknown[]) => ({
  error: "0",
  data: { result: items.length, perpage: 15, currentpage: 1, nextpage: 1, maxpage: 1, [name]: items },
});
const stats = {
  clicks: 3,
  uniqueClicks: 2,
  topCountries: { canada: "2" },
  topReferrers: 0,
  topBrowsers: { chrome: 3 },
  topOs: 0,
  socialCount: { facebook: 0, twitter: 0, google: 0 },
};
const normalStats = {
  clicks: 3,
  uniqueClicks: 2,
  topCountries: { canada: 2 },
  topReferrers: {},
  topBrowsers: { chrome: 3 },
  topOs: {},
  socialCount: { facebook: 0, twitter: 0, google: 0 },
};
const plan = {
  id: 1,
  name: "Pro",
  free: false,
  prices: { monthly: 9.99, yearly: 99, lifetime: 299 },
  limits: { links: 1000, clicks: 100000, retention: 365, custom: { enabled: "1" }, team: { enabled: "0", count: "0" }, domain: { enabled: "1", count: "5" } },
};
const user = {
  id: 2,
  email: "a@b.co",
  username: "alice",
  avatar: "https://x/a.png",
  status: "pro",
  expires: null,
  registered: "2026-01-01 00:00:00",
  planid: 1,
  apikey: "k2",
};

interface Case {
  name: string;
  call: (client: LinkShortClient) => PromiseLike<unknown>;
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  reply: unknown;
  result: unknown;
}

const cases: Case[] = [
  {
    name: "account.get",
    call: (c) => c.account.get(),
    method: "GET",
    path: "/api/account",
    reply: { error: 0, data: { id: 1, email: "me@x.io", username: "me", avatar: "", status: "pro", expires: null, registered: "2026-01-01 00:00:00" } },
    result: { id: 1, email: "me@x.io", username: "me", avatar: "", status: "pro", expires: null, registered: "2026-01-01 00:00:00" },
  },
  {
    name: "account.update",
    call: (c) => c.account.update({ email: "new@x.io", password: "secret1" }),
    method: "PUT",
    path: "/api/account/update",
    body: { email: "new@x.io", password: "secret1" },
    reply: { error: 0, message: "Account has been successfully updated." },
    result: { message: "Account has been successfully updated." },
  },
  {
    name: "domains.list",
    call: (c) => c.domains.list({ limit: 2, page: 3 }),
    method: "GET",
    path: "/api/domains",
    query: { limit: "2", page: "3" },
    reply: page("domains", [{ id: 1, domain: "https://go.brand.com", redirectroot: "https://brand.com", redirect404: "https://brand.com/404" }]),
    result: {
      items: [{ id: 1, domain: "https://go.brand.com", redirectroot: "https://brand.com", redirect404: "https://brand.com/404" }],
      result: 1,
      perpage: 15,
      currentpage: 1,
      nextpage: 1,
      maxpage: 1,
    },
  },
  {
    name: "domains.create",
    call: (c) => c.domains.create({ domain: "https://go.brand.com", redirectroot: "https://brand.com" }),
    method: "POST",
    path: "/api/domain/add",
    body: { domain: "https://go.brand.com", redirectroot: "https://brand.com" },
    reply: { error: 0, id: "4" },
    result: { id: 4 },
  },
  {
    name: "domains.update",
    call: (c) => c.domains.update(4, { redirect404: "https://brand.com/404" }),
    method: "PUT",
    path: "/api/domain/4/update",
    body: { redirect404: "https://brand.com/404" },
    reply: { error: 0, message: "Domain has been updated successfully." },
    result: { message: "Domain has been updated successfully." },
  },
  {
    name: "domains.delete",
    call: (c) => c.domains.delete(4),
    method: "DELETE",
    path: "/api/domain/4/delete",
    reply: { error: 0, message: "Domain has been deleted successfully." },
    result: { message: "Domain has been deleted successfully." },
  },
  {
    name: "splashPages.list",
    call: (c) => c.splashPages.list(),
    method: "GET",
    path: "/api/splash",
    query: { page: "1" },
    reply: page("splash", [{ id: 1, name: "Promo", date: "2026-01-01 00:00:00" }]),
    result: { items: [{ id: 1, name: "Promo", date: "2026-01-01 00:00:00" }], result: 1, perpage: 15, currentpage: 1, nextpage: 1, maxpage: 1 },
  },
  {
    name: "overlays.list (document: cta)",
    call: (c) => c.overlays.list({ limit: 5 }),
    method: "GET",
    path: "/api/overlay",
    query: { limit: "5", page: "1" },
    reply: page("cta", [{ id: 1, type: "message", name: "Hello", date: "2026-01-01 00:00:00" }]),
    result: {
      items: [{ id: 1, type: "message", name: "Hello", date: "2026-01-01 00:00:00" }],
      result: 1,
      perpage: 15,
      currentpage: 1,
      nextpage: 1,
      maxpage: 1,
    },
  },
  {
    name: "links.list",
    call: (c) => c.links.list({ order: "click", limit: 10 }),
    method: "GET",
    path: "/api/urls",
    query: { order: "click", limit: "10", page: "1" },
    reply: page("urls", [{ ...link, id: "7", clicks: "3" }]),
    result: { items: [link], result: 1, perpage: 15, currentpage: 1, nextpage: 1, maxpage: 1 },
  },
  {
    name: "links.get",
    call: (c) => c.links.get(7),
    method: "GET",
    path: "/api/url/7",
    reply: {
      error: 0,
      id: 7,
      details: {
        id: 7,
        shorturl: link.shorturl,
        longurl: link.longurl,
        title: "A",
        description: "",
        location: { canada: "https://ca.example" },
        device: [],
        expiry: null,
        date: link.date,
      },
      data: stats,
    },
    result: {
      details: {
        id: 7,
        shorturl: link.shorturl,
        longurl: link.longurl,
        title: "A",
        description: "",
        location: { canada: "https://ca.example" },
        device: {},
        expiry: null,
        date: link.date,
      },
      stats: normalStats,
    },
  },
  {
    name: "links.create",
    call: (c) =>
      c.links.create({
        url: "https://example.com/a",
        custom: "my-alias",
        type: "splash",
        password: "pw",
        domain: "https://go.brand.com",
        expiry: "2030-01-01 00:00:00",
        geotarget: [{ location: "Canada", link: "https://ca.example" }],
        devicetarget: [{ device: "iPhone", link: "https://apple.example" }],
        parameters: [{ name: "utm_source", value: "n8n" }],
        metatitle: "T",
        metadescription: "D",
      }),
    method: "POST",
    path: "/api/url/add",
    body: {
      url: "https://example.com/a",
      custom: "my-alias",
      type: "splash",
      password: "pw",
      domain: "https://go.brand.com",
      expiry: "2030-01-01 00:00:00",
      geotarget: [{ location: "Canada", link: "https://ca.example" }],
      devicetarget: [{ device: "iPhone", link: "https://apple.example" }],
      parameters: [{ name: "utm_source", value: "n8n" }],
      metatitle: "T",
      metadescription: "D",
    },
    reply: { error: 0, id: 9, shorturl: "https:\/\/short.example\/my-alias" },
    result: { id: 9, shorturl: "https://short.example/my-alias" },
  },
  {
    name: "links.update (document: short)",
    call: (c) => c.links.update(9, { url: "https://example.com/b", type: "frame" }),
    method: "PUT",
    path: "/api/url/9/update",
    body: { url: "https://example.com/b", type: "frame" },
    reply: { error: 0, id: 9, short: "https://short.example/my-alias" },
    result: { id: 9, shorturl: "https://short.example/my-alias" },
  },
  {
    name: "links.delete",
    call: (c) => c.links.delete(9),
    method: "DELETE",
    path: "/api/url/9/delete",
    reply: { error: 0, message: "Link has been deleted successfully" },
    result: { message: "Link has been deleted successfully" },
  },
  {
    name: "pixels.list",
    call: (c) => c.pixels.list({ page: 2 }),
    method: "GET",
    path: "/api/pixels",
    query: { page: "2" },
    reply: page("pixels", [{ id: 1, type: "gtmpixel", name: "GTM", tag: "GTM-1", date: "2026-01-01 00:00:00" }]),
    result: {
      items: [{ id: 1, type: "gtmpixel", name: "GTM", tag: "GTM-1", date: "2026-01-01 00:00:00" }],
      result: 1,
      perpage: 15,
      currentpage: 1,
      nextpage: 1,
      maxpage: 1,
    },
  },
  {
    name: "pixels.create",
    call: (c) => c.pixels.create({ type: "fbpixel", name: "FB", tag: "123" }),
    method: "POST",
    path: "/api/pixel/add",
    body: { type: "fbpixel", name: "FB", tag: "123" },
    reply: { error: 0, id: 3 },
    result: { id: 3 },
  },
  {
    name: "pixels.update",
    call: (c) => c.pixels.update(3, { tag: "456" }),
    method: "PUT",
    path: "/api/pixel/3/update",
    body: { tag: "456" },
    reply: { error: 0, message: "Pixel has been updated successfully." },
    result: { message: "Pixel has been updated successfully." },
  },
  {
    name: "pixels.delete",
    call: (c) => c.pixels.delete(3),
    method: "DELETE",
    path: "/api/pixel/3/delete",
    reply: { error: 0, message: "Pixel has been deleted successfully." },
    result: { message: "Pixel has been deleted successfully." },
  },
  {
    name: "qrCodes.list",
    call: (c) => c.qrCodes.list({ limit: 100 }),
    method: "GET",
    path: "/api/qr",
    query: { limit: "100", page: "1" },
    reply: page("qrs", [{ id: 1, link: "https://short.example/qr/a1b2c3", scans: "5", name: "Menu", date: "2026-01-01 00:00:00" }]),
    result: {
      items: [{ id: 1, link: "https://short.example/qr/a1b2c3", scans: 5, name: "Menu", date: "2026-01-01 00:00:00" }],
      result: 1,
      perpage: 15,
      currentpage: 1,
      nextpage: 1,
      maxpage: 1,
    },
  },
  {
    name: "qrCodes.get",
    call: (c) => c.qrCodes.get(1),
    method: "GET",
    path: "/api/qr/1",
    reply: {
      error: 0,
      details: { id: 1, link: "https://short.example/qr/a1b2c3", scans: 5, name: "Menu", date: "2026-01-01 00:00:00" },
      data: { ...stats, socialCount: { facebook: "1", twitter: "0", instagram: "2" } },
    },
    result: {
      details: { id: 1, link: "https://short.example/qr/a1b2c3", scans: 5, name: "Menu", date: "2026-01-01 00:00:00" },
      stats: { ...normalStats, socialCount: { facebook: 1, twitter: 0, instagram: 2 } },
    },
  },
  {
    name: "qrCodes.create",
    call: (c) =>
      c.qrCodes.create({
        type: "wifi",
        data: { ssid: "Cafe", password: "pw", encryption: "WPA" },
        background: "rgb(255,255,255)",
        foreground: "rgb(0, 0, 0)",
        logo: "https://x.io/logo.png",
      }),
    method: "POST",
    path: "/api/qr/add",
    body: {
      type: "wifi",
      data: { ssid: "Cafe", password: "pw", encryption: "WPA" },
      background: "rgb(255,255,255)",
      foreground: "rgb(0, 0, 0)",
      logo: "https://x.io/logo.png",
    },
    reply: { error: 0, id: 2, link: "https://short.example/qr/abcdef" },
    result: { id: 2, link: "https://short.example/qr/abcdef" },
  },
  {
    name: "qrCodes.update",
    call: (c) => c.qrCodes.update(2, { type: "link", data: "https://example.com/menu" }),
    method: "PUT",
    path: "/api/qr/2/update",
    body: { type: "link", data: "https://example.com/menu" },
    reply: { error: 0, message: "QR has been updated successfully." },
    result: { message: "QR has been updated successfully." },
  },
  {
    name: "qrCodes.delete",
    call: (c) => c.qrCodes.delete(2),
    method: "DELETE",
    path: "/api/qr/2/delete",
    reply: { error: 0, message: "QR Code has been deleted successfully." },
    result: { message: "QR Code has been deleted successfully." },
  },
  {
    name: "plans.list",
    call: (c) => c.plans.list(),
    method: "GET",
    path: "/api/plans",
    reply: { error: 0, data: [plan] },
    result: {
      items: [
        {
          id: 1,
          name: "Pro",
          free: false,
          prices: { monthly: 9.99, yearly: 99, lifetime: 299 },
          limits: {
            links: 1000,
            clicks: 100000,
            retention: 365,
            custom: { enabled: true },
            team: { enabled: false, count: 0 },
            domain: { enabled: true, count: 5 },
          },
        },
      ],
      result: 1,
      perpage: 1,
      currentpage: 1,
      nextpage: null,
      maxpage: 1,
    },
  },
  {
    name: "plans.subscribe",
    call: (c) => c.plans.subscribe(1, 2, { type: "yearly", expiration: "2027-11-21 00:00:00" }),
    method: "PUT",
    path: "/api/plan/1/user/2",
    body: { type: "yearly", expiration: "2027-11-21 00:00:00" },
    reply: { error: 0, message: "User has been subscribed to this plan." },
    result: { message: "User has been subscribed to this plan." },
  },
  {
    name: "users.list",
    call: (c) => c.users.list({ filter: "pro", email: "a@b.co" }),
    method: "GET",
    path: "/api/users",
    query: { filter: "pro", email: "a@b.co" },
    reply: { error: 0, data: [user] },
    result: { items: [user], result: 1, perpage: 1, currentpage: 1, nextpage: null, maxpage: 1 },
  },
  {
    name: "users.get",
    call: (c) => c.users.get(2),
    method: "GET",
    path: "/api/user/2",
    reply: { error: 0, data: user },
    result: user,
  },
  {
    name: "users.create (document: data)",
    call: (c) => c.users.create({ username: "bob", email: "bob@x.io", password: "secret", planid: 1, expiration: "2027-01-01 00:00:00" }),
    method: "POST",
    path: "/api/user/add",
    body: { username: "bob", email: "bob@x.io", password: "secret", planid: 1, expiration: "2027-01-01 00:00:00" },
    reply: { error: 0, message: "User has been registered.", data: { id: 3, email: "bob@x.io", username: "bob" } },
    result: { id: 3, email: "bob@x.io", username: "bob" },
  },
  {
    name: "users.create (deployed: userid)",
    call: (c) => c.users.create({ username: "bob", email: "bob@x.io", password: "secret" }),
    method: "POST",
    path: "/api/user/add",
    body: { username: "bob", email: "bob@x.io", password: "secret" },
    reply: { error: 0, message: "User has been registered.", userid: "3" },
    result: { id: 3, email: undefined, username: undefined },
  },
  {
    name: "users.delete",
    call: (c) => c.users.delete(3),
    method: "DELETE",
    path: "/api/user/3/delete",
    reply: { error: 0, message: "User has been deleted." },
    result: { message: "User has been deleted." },
  },
  {
    name: "users.loginLink",
    call: (c) => c.users.loginLink(3),
    method: "GET",
    path: "/api/user/login/3",
    reply: { error: 0, url: "https://short.example/user/login/sso/abc" },
    result: { url: "https://short.example/user/login/sso/abc" },
  },
];

describe("every endpoint", () => {
  it.each(cases)("$name sends the right request and parses the answer", async ({ call, method, path, query, body, reply, result }) => {
    const { client, sent } = scripted([{ json: reply }]);
    await expect(Promise.resolve(call(client))).resolves.toEqual(result);
    expect(sent).toHaveLength(1);
    const [request] = sent;
    expect(request!.method).toBe(method);
    expect(request!.path).toBe(path);
    expect(request!.query).toEqual(query ?? {});
    expect(request!.json).toEqual(body);
    expect(request!.headers.Authorization).toBe("Bearer sk_test_5f2c9a71d04e4b8c");
    expect(request!.headers["Content-Type"]).toBe(body === undefined ? undefined : "application/json");
  });

  it("covers all 29 endpoints of the contract", () => {
    const endpoints = new Set(cases.map((c) => `${c.method} ${c.path.replace(/\/\d+/g, "/{id}")}`));
    expect(endpoints.size).toBe(29);
  });

  it("accepts a base URL that ends in /api/", async () => {
    const { client, sent } = scripted([{ json: { error: 0, data: user } }], { baseUrl: "https://short.example/api/" });
    await client.users.get(2);
    expect(sent[0]!.url).toBe("https://short.example/api/user/2");
    expect(client.baseUrl).toBe("https://short.example");
  });
});
