import type { ServerResponse } from "node:http";

/** What every HTML page of the sandbox shares: escaping, the plain page, the 404/405/500 page. */

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function page(response: ServerResponse, status: number, title: string, body: string): void {
  response.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
  response.end(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`);
}

export function notFoundPage(response: ServerResponse, status = 404): void {
  page(
    response,
    status,
    status === 405 ? "405 Method Not Allowed" : "404 Not Found",
    `<h1>${status === 405 ? "405 Method Not Allowed" : "404 Not Found"}</h1>`,
  );
}
