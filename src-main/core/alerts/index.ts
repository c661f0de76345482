export { createAlerts } from './alerts.js';
export type { Alerts, AlertsOptions, Notice, UnknownOutcome } from './alerts.js';
export { alertBody, alertTitle } from './alert-text.js';
export type { AlertableEvent } from './alert-text.js';
export { trayState } from './tray-state.js';
export type { TrayInputs } from './tray-state.js';
export { trayUpdater, wireAlerts, wireTray } from './alert-wiring.js';
