export { runCloseAll, FLAT_TEXT } from './close-all.js';
export type { CloseAllDeps } from './close-all.js';
export { cancelSweep } from './cancel-sweep.js';
export type { SweepDeps, SweepResult } from './cancel-sweep.js';
export { describeExposure, ownedBy, readExposures, readWorking } from './fresh-books.js';
export type { Exposures, OpenExposure, Read, WorkingOrder } from './fresh-books.js';
