/**
 * The shape of the sandbox's data: the records of each collection and the state that holds them,
 * read by the store (in memory) and by the data file (on disk) alike.
 */

/** A map of counts keyed by what visitors send (referrers...): no prototype, so `constructor` or `__proto__` is a key like any other. */
export function countMap(entries: Iterable<[string, number]> = []): Record<string, number> {
  const map = Object.create(null) as Record<string, number>;
  for (const [key, count] of entries) map[key] = count;
  return map;
}

export interface Targets {
  geotarget: Array<{ location: string; link: string }>;
  devicetarget: Array<{ device: string; link: string }>;
  parameters: Array<{ name: string; value: string }>;
}

/** Aggregated visits of a link or scans of a QR code. The maps have no prototype: their keys come from visitors. */
export interface Stats {
  clicks: number;
  visitors: string[];
  countries: Record<string, number>;
  referrers: Record<string, number>;
  browsers: Record<string, number>;
  os: Record<string, number>;
  social: Record<string, number>;
  /** Every visitor id hashed into a bitmap (base64), for the unique count once `visitors` is full. */
  sketch?: string;
}

export interface UserRecord {
  id: number;
  username: string;
  email: string;
  passwordHash: string;
  apiKey: string;
  admin: boolean;
  planId: number | null;
  expires: string | null;
  registered: string;
  avatar: string;
}

export interface DomainRecord {
  id: number;
  userId: number;
  domain: string;
  redirectroot: string;
  redirect404: string;
}

export interface SplashRecord {
  id: number;
  userId: number;
  name: string;
  date: string;
}

export interface OverlayRecord {
  id: number;
  userId: number;
  type: "message" | "contact";
  name: string;
  date: string;
}

export interface LinkRecord extends Targets {
  id: number;
  userId: number;
  alias: string;
  /** The branded domain (with scheme), or null for the service's own. */
  domain: string | null;
  url: string;
  type: string;
  password: string | null;
  expiry: string | null;
  metatitle: string;
  metadescription: string;
  date: string;
  stats: Stats;
}

export interface PixelRecord {
  id: number;
  userId: number;
  type: string;
  name: string;
  tag: string;
  date: string;
}

export interface QrRecord {
  id: number;
  userId: number;
  code: string;
  type: string;
  data: unknown;
  background: string;
  foreground: string;
  logo: string | null;
  name: string;
  date: string;
  stats: Stats;
}

export interface PlanRecord {
  id: number;
  name: string;
  free: boolean;
  prices: { monthly: number; yearly: number; lifetime: number } | null;
  limits: Record<string, unknown>;
}

export interface SsoToken {
  token: string;
  userId: number;
  expiresAt: number;
  used: boolean;
}

export interface State {
  nextId: Record<string, number>;
  users: UserRecord[];
  domains: DomainRecord[];
  splash: SplashRecord[];
  overlays: OverlayRecord[];
  links: LinkRecord[];
  pixels: PixelRecord[];
  qrs: QrRecord[];
  plans: PlanRecord[];
  sso: SsoToken[];
}

export function emptyStats(): Stats {
  return { clicks: 0, visitors: [], countries: countMap(), referrers: countMap(), browsers: countMap(), os: countMap(), social: countMap() };
}

export function emptyState(): State {
  return { nextId: {}, users: [], domains: [], splash: [], overlays: [], links: [], pixels: [], qrs: [], plans: [], sso: [] };
}

/** The order of every list the API answers: newest date first, the higher id first on equal dates. */
export const newestFirst = <T extends { id: number; date: string }>(a: T, b: T) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.id - a.id);
