// The alert log in Svelte context, beside the desk's other states (context.ts): App.svelte creates and
// starts one AlertLog for the whole page, so alerts are collected while the Alerts pane is not shown;
// the pane and the tab label read the same instance.
import { getContext, hasContext, setContext } from 'svelte';
import type { AlertLog } from './alert-log.svelte';

export const ALERT_LOG = Symbol('alert-log');

export const setAlertLog = (log: AlertLog): AlertLog => setContext(ALERT_LOG, log);

export function getAlertLog(): AlertLog {
  if (!hasContext(ALERT_LOG))
    throw new Error('AlertLog is not in context: mount the pane under App or pass it');
  return getContext<AlertLog>(ALERT_LOG);
}

/** The log when App provides one (the status bar's unread count is optional, the pane's list is not). */
export const findAlertLog = (): AlertLog | undefined =>
  hasContext(ALERT_LOG) ? getContext<AlertLog>(ALERT_LOG) : undefined;
