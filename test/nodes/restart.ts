/**
 * An n8n restart as the node tests play it: a second copy of the built node loaded afresh
 * (`jest.isolateModules`: its rate limiter, link index and memory empty), given the static data as
 * n8n saved it.
 */
import type { IDataObject } from 'n8n-workflow';

export type Harness = typeof import('./harness');

/** A new n8n process: the built node loaded again, nothing in memory. */
export function freshN8n(): Harness {
  let harness: Harness | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a second copy of the module, as a new process loads it
    harness = require('./harness') as Harness;
  });
  return harness!;
}

/** What n8n keeps of static data between executions: JSON in its database. */
export const saved = (staticData: IDataObject): IDataObject => JSON.parse(JSON.stringify(staticData)) as IDataObject;
