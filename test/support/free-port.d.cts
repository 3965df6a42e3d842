export function freePort(taken?: Set<number>): Promise<number>;
