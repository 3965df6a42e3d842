export { startSandbox } from "./server";
export type { Sandbox, SandboxOptions } from "./sandbox";
export { FAULT_KINDS, FaultInjector, type FaultKind, type FaultRule } from "./faults/fault-injector";
export { seededRandom } from "./seeded-random";
export type { Mode } from "./views/answers";
export type { BulkSeed, SeedName, SeedOption } from "./seed/seed";
export { Store } from "./persistence/store";
export { emptyStats } from "./visits/stats";
export { DATE_TIE_ORDERS, UnstableDateOrder, type DateTieOrder } from "./date-ties";
