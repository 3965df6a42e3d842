/**
 * The shape of the sandbox's data: the records of each collection and the state that holds them,
 * read by the store (in memory) and by the data file (on disk) alike. The link record lives with
 * its fields and views in `model/link-record.ts`.
 */
import type { LinkRecord } from "../model/link-record";
import type { Stats } from "../visits/stats";

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

export function emptyState(): State {
  return { nextId: {}, users: [], domains: [], splash: [], overlays: [], links: [], pixels: [], qrs: [], plans: [], sso: [] };
}

/** The order of every list the API answers: newest date first, the higher id first on equal dates. */
export const newestFirst = <T extends { id: number; date: string }>(a: T, b: T) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.id - a.id);
