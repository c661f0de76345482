// The ticket judges by the limits in force: a change saved in Settings applies to the next order at
// once (settings.changed, newest only), and an instrument's per-symbol limits replace the general
// ones for it alone, as the core's risk gate does on send.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '@contract';
import { TicketState } from '../../../src-renderer/src/state/ticket.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { SBIN } from '../../support/component/instruments';
import { flush } from '../../support/component/session';

function withRisk(risk: Partial<Settings['risk']>): Settings {
  return { ...DEFAULT_SETTINGS, risk: { ...DEFAULT_SETTINGS.risk, ...risk } };
}

async function ticket(initial: Settings) {
  const b = new FakeBridge()
    .answer('settings.get', () => ({ ok: true, value: initial }))
    .answer('market.symbol', () => ({ ok: true, value: SBIN }));
  const t = new TicketState(b);
  const stop = t.listen();
  await t.open('BUY', { symbol: 'SBIN', exchange: 'NSE' }, { lastPrice: 905.3 });
  t.priceType = 'MARKET';
  return { t, b, stop };
}

const quantityIssue = (t: TicketState) => t.issues.find((i) => /exceeds your limit/.test(i.message))?.message;

describe('ticket limits', () => {
  it('a limit saved in Settings applies to the ticket at once, and a late older change does not undo it', async () => {
    const { t, b, stop } = await ticket(withRisk({ maxQuantityPerOrder: 10 }));
    t.quantityText = '20';
    expect(quantityIssue(t)).toBe('Quantity 20 exceeds your limit of 10 per order');
    b.emit('settings.changed', { seq: 5, settings: withRisk({ maxQuantityPerOrder: 50 }) });
    await flush();
    expect(quantityIssue(t)).toBeUndefined();
    b.emit('settings.changed', { seq: 4, settings: withRisk({ maxQuantityPerOrder: 10 }) });
    await flush();
    expect(quantityIssue(t)).toBeUndefined();
    stop();
  });

  it("an instrument's own limit replaces the general one for it", async () => {
    const { t, stop } = await ticket(
      withRisk({
        maxQuantityPerOrder: 10,
        symbolOverrides: [{ symbol: 'SBIN', exchange: 'NSE', maxQuantityPerOrder: 100 }],
      }),
    );
    t.quantityText = '50';
    expect(quantityIssue(t)).toBeUndefined();
    t.quantityText = '150';
    expect(quantityIssue(t)).toBe('Quantity 150 exceeds your limit of 100 per order');
    stop();
  });
});
