/** Types of built.cjs for the TypeScript tests. */
export type BuildKey = 'client' | 'sandbox' | 'mcp' | 'nodes';
export const BUILDS: Record<BuildKey, { name: string; dist: string; sources: string[] }>;
export function staleBuilds(keys?: BuildKey[], root?: string): string[];
export function warnIfStale(keys?: BuildKey[]): boolean;
