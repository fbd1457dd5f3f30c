export { startSim } from './server.js';
export { SimStateInUseError, type StateHolder, lockPathOf, sharedSim } from './state-lock.js';
export { DEFAULT_SIM_PORT, serveSim, type ServeSimOptions } from './serve.js';
export type { Faults, LedgerFile, LedgerKey, LedgerRun, Sim, SimCounters, SimLedger, SimOptions } from './types.js';
