/**
 * What the nodes tell n8n's log, captured: n8n-core's contexts take their `logger` from its own
 * copies of its dependency injection and Logger (nested under n8n-core), so the Logger is set there.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const fromCore = (name: string) => require(require.resolve(name, { paths: [require.resolve('n8n-core')] })) as Record<string, unknown>;
const { Container } = fromCore('@n8n/di') as { Container: { set: (type: unknown, value: unknown) => void } };
const { Logger } = fromCore('@n8n/backend-common') as { Logger: unknown };

/** Warnings logged since the last `clearLog()`. */
export const warnings: string[] = [];
export function clearLog() {
  warnings.length = 0;
}

const quiet = () => undefined;
const logger = { warn: (message: string) => warnings.push(message), info: quiet, debug: quiet, error: quiet };
Container.set(Logger, { ...logger, scoped: () => logger });
