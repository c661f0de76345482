// Where an alert goes beyond its toast, by the rule it was raised under (settings.alerts): `os` a
// system notification (the browser's, once allowed; Electron's main shows its own), `sound` a short
// chime in the window, `in_app` nothing more. Alerts from before the rules count as `os`.
import type { AlertEvent } from '@contract';
import { notifySystem } from './system-notify';

/** A short two-tone chime through Web Audio; silent where the page has no audio. */
export function playChime(): void {
  const Ctx = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!Ctx) return;
  try {
    const ctx = new Ctx();
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(0.12, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.35);
    gain.connect(ctx.destination);
    [880, 1320].forEach((hz, i) => {
      const osc = ctx.createOscillator();
      osc.frequency.value = hz;
      osc.connect(gain);
      osc.start(ctx.currentTime + i * 0.12);
      osc.stop(ctx.currentTime + i * 0.12 + 0.12);
    });
    setTimeout(() => void ctx.close(), 600);
  } catch {
    // A page the browser keeps from playing sound (no user gesture yet): the toast still shows.
  }
}

export interface DeliveryTargets {
  system: (alert: AlertEvent) => void;
  chime: () => void;
}

export function deliverAlert(
  alert: AlertEvent,
  to: DeliveryTargets = { system: notifySystem, chime: playChime },
): void {
  const delivery = alert.delivery ?? 'os';
  if (delivery === 'os') to.system(alert);
  else if (delivery === 'sound') to.chime();
}
