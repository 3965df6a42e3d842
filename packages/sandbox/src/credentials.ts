import { randomBytes, scryptSync } from "node:crypto";

/** Secrets the sandbox makes: stored password hashes and API keys. */

export function hashPassword(password: string): string {
  const salt = randomBytes(8).toString("hex");
  return `${salt}:${scryptSync(password, salt, 32, { N: 1024 }).toString("hex")}`;
}

export function generateApiKey(): string {
  return randomBytes(16).toString("hex");
}
