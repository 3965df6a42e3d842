import { createHash, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { countMap, openDataFile, readState, writeDataFile } from "./data-file";

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

function emptyState(): State {
  return { nextId: {}, users: [], domains: [], splash: [], overlays: [], links: [], pixels: [], qrs: [], plans: [], sso: [] };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest();

export function hashPassword(password: string): string {
  const salt = randomBytes(8).toString("hex");
  return `${salt}:${scryptSync(password, salt, 32, { N: 1024 }).toString("hex")}`;
}

export function generateApiKey(): string {
  return randomBytes(16).toString("hex");
}

/** A change that could not be written to the data file; the state is back to the last saved one. */
export class SaveError extends Error {}

/**
 * The sandbox's data, in memory, optionally kept in a JSON file across restarts. With a file, every
 * change is written before it is answered (`commit`), so a kill -9 loses nothing acknowledged.
 */
export class Store {
  state: State;
  private keyIndex = new Map<string, UserRecord>();
  /** The text last written to the data file: what a failed save rolls back to. */
  private saved: string | undefined;
  private readonly releaseLock: (() => void) | undefined;

  constructor(private readonly file?: string) {
    const opened = file ? openDataFile(file) : undefined;
    this.releaseLock = opened?.release;
    this.state = { ...emptyState(), ...opened?.state };
    this.reindex();
  }

  get isNew(): boolean {
    return this.state.users.length === 0;
  }

  nextId(kind: keyof State): number {
    const id = (this.state.nextId[kind] ?? 0) + 1;
    this.state.nextId[kind] = id;
    return id;
  }

  reindex(): void {
    this.keyIndex = new Map(this.state.users.map((user) => [sha256(user.apiKey).toString("hex"), user]));
  }

  /**
   * The user whose key this is. Keys are compared as SHA-256 digests with `timingSafeEqual`, so the
   * time taken does not depend on how much of a guessed key is right.
   */
  userByKey(key: string): UserRecord | undefined {
    const digest = sha256(key);
    const candidate = this.keyIndex.get(digest.toString("hex"));
    if (!candidate) return undefined;
    return timingSafeEqual(sha256(candidate.apiKey), digest) ? candidate : undefined;
  }

  /**
   * Writes the state to the data file (nothing without one). When that fails, the state goes back
   * to what was last saved and a SaveError says why: the change must then not be acknowledged.
   */
  commit(): void {
    if (!this.file) return;
    const text = JSON.stringify(this.state);
    try {
      writeDataFile(this.file, text);
      this.saved = text;
    } catch (error) {
      if (this.saved !== undefined) this.restore(this.saved);
      const reason = error instanceof Error ? error.message : String(error);
      throw new SaveError(this.saved === undefined ? `data file "${this.file}" cannot be written: ${reason}` : `The change could not be saved to the data file (${reason}); nothing was changed.`);
    }
  }

  private restore(text: string): void {
    this.state = { ...emptyState(), ...readState(text) };
    this.reindex();
  }

  /** Releases the data file for another sandbox. */
  close(): void {
    this.releaseLock?.();
  }
}
