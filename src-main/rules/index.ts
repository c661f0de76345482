// Pure order rules that both the paper gateway and the core need (previews must match what the
// gateway does). Imports the contract only.
export * from './smart-order.js';
export * from './split-plan.js';
