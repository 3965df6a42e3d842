import { accountRoutes } from "./account";
import { domainRoutes } from "./domains";
import { linkRoutes } from "./links";
import { pageRoutes } from "./pages";
import { pixelRoutes } from "./pixels";
import { planRoutes } from "./plans";
import { qrCodeRoutes } from "./qr-codes";
import type { Route } from "./shared";
import { userRoutes } from "./users";

/** Every API route, one file per resource as in the client's `resources/`. */
export const routes: Route[] = [...accountRoutes, ...domainRoutes, ...pageRoutes, ...linkRoutes, ...pixelRoutes, ...qrCodeRoutes, ...planRoutes, ...userRoutes];

/** The route for a method and path; `pathMatched` says whether the path exists under another method. */
export function findRoute(method: string, path: string): { route?: Route; params: string[]; pathMatched: boolean } {
  let pathMatched = false;
  for (const candidate of routes) {
    const match = candidate.pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (candidate.method === method) return { route: candidate, params: match.slice(1), pathMatched };
  }
  return { params: [], pathMatched };
}
