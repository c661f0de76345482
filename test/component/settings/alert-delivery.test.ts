// The window honours each alert's rule: a system notification only under `os` (and for alerts from
// before the rules), a chime under `sound`, nothing more under `in_app`.
import { describe, expect, it, vi } from 'vitest';
import type { AlertEvent } from '@contract';
import { deliverAlert, playChime } from '../../../src-renderer/src/lib/alert-delivery';

const alert: AlertEvent = {
  id: '1:fill:10',
  time: 0,
  kind: 'fill',
  title: 'BUY 10 SBIN @ ₹812.35 filled',
  body: 'NSE · MARKET · MIS · order 1',
  sticky: false,
  orderid: '1',
};

describe('deliverAlert', () => {
  it('routes by the rule the core raised the alert under', () => {
    for (const [delivery, system, chime] of [
      ['os', 1, 0],
      ['sound', 0, 1],
      ['in_app', 0, 0],
      [undefined, 1, 0],
    ] as const) {
      const to = { system: vi.fn(), chime: vi.fn() };
      deliverAlert(delivery ? { ...alert, delivery } : alert, to);
      expect(to.system, String(delivery)).toHaveBeenCalledTimes(system);
      expect(to.chime, String(delivery)).toHaveBeenCalledTimes(chime);
    }
  });

  it('a page without audio plays nothing and does not throw', () => {
    expect(() => playChime()).not.toThrow();
  });
});
