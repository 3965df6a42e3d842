/** A moment (epoch ms) as answers give it, ISO 8601 in UTC; null stays null (not known, not sampled). */
export const isoOrNull = (at: number | null): string | null => (at === null ? null : new Date(at).toISOString());
