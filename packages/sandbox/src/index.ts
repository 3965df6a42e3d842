export { startSandbox } from "./server";
export type { Sandbox, SandboxOptions } from "./sandbox";
export { FAULT_KINDS, type FaultKind, type FaultRule } from "./faults/fault-injector";
export { seededRandom } from "./seeded-random";
export type { Mode } from "./views/answers";
export type { SeedOption } from "./seed/seed";
export type { DateTieOrder } from "./date-ties";
export { emptyStats } from "./visits/stats";
export { visitsBetween } from "./visits/visit-times";
