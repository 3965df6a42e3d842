export { startSandbox } from "./server";
export type { Sandbox, SandboxOptions } from "./sandbox";
export { FAULT_KINDS, FaultInjector, seededRandom, type FaultKind, type FaultRule } from "./faults";
export type { Mode } from "./views";
export type { BulkSeed, SeedName, SeedOption } from "./seed";
export { Store } from "./store";
export { DATE_TIE_ORDERS, UnstableDateOrder, type DateTieOrder } from "./date-ties";
