export { runCloseAll, FLAT_TEXT } from './close-all.js';
export type { CloseAllDeps } from './close-all.js';
export { cancelSweep } from './cancel-sweep.js';
export type { SweepDeps, SweepResult } from './cancel-sweep.js';
export { describeExposure, ownedBy, readExposures, readWorking } from './fresh-books.js';
export type { Exposures, OpenExposure, Read, WorkingOrder } from './fresh-books.js';
export { startFlatten } from './flatten-account.js';
export type {
  ExitOrder,
  FlattenDeps,
  FlattenOutcome,
  FlattenProgress,
  FlattenRun,
} from './flatten-account.js';
export { createExitLedger, positionKey } from './exit-ledger.js';
export type { ExitLedger } from './exit-ledger.js';
export { createSliceLimit, sliceLimitOf, slicesOf } from './slice-limit.js';
export type { SliceLimit } from './slice-limit.js';
