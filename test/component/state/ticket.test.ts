import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type IpcResult, type OrderIdResponse } from '@contract';
import { TicketState } from '../../../src-renderer/src/state/ticket.svelte';
import { CONFIRM_ARM_MS } from '../../../src-renderer/src/state/send-step.svelte';
import { FakeBridge, deferred } from '../../support/component/fake-bridge';
import { NIFTY_FUT, SBIN } from '../../support/component/instruments';

const RISK = { ...DEFAULT_SETTINGS.risk, maxValuePerOrder: 10_00_00_000 };

function bridge(): FakeBridge {
  return new FakeBridge()
    .answer('settings.get', () => ({ ok: true, value: { ...DEFAULT_SETTINGS, risk: RISK } }))
    .answer('market.symbol', (input) => {
      const found = [SBIN, NIFTY_FUT].find(
        (s) => s.symbol === input?.symbol && s.exchange === input.exchange,
      );
      return found
        ? { ok: true, value: found }
        : {
            ok: false,
            error: {
              kind: 'not_found',
              message: `Symbol ${input?.symbol} not found in exchange ${input?.exchange}`,
            },
          };
    });
}

const placed = (orderid: string): IpcResult<OrderIdResponse> => ({
  ok: true,
  value: { status: 'success', orderid },
});

async function sbinTicket(b = bridge()) {
  const t = new TicketState(b, { strategy: 'desk' });
  await t.open('BUY', { symbol: 'SBIN', exchange: 'NSE' }, { lastPrice: 905.32 });
  return { t, b };
}

describe('opening the ticket', () => {
  it('loads the instrument and the limits, and starts at one lot and the last price on the tick', async () => {
    const { t, b } = await sbinTicket();
    expect(b.calls.map((c) => c.channel).sort()).toEqual(['market.symbol', 'settings.get']);
    expect(t.instrument).toEqual(SBIN);
    expect(t.limits).toEqual(RISK);
    expect([t.quantityText, t.priceText, t.product, t.priceType]).toEqual(['1', '905.30', 'CNC', 'LIMIT']);
    expect(t.issues).toEqual([]);
    expect(t.name).toBe('SBIN');
  });

  it('offers the products of the exchange, derivative products for NFO', async () => {
    const t = new TicketState(bridge());
    await t.open('SELL', { symbol: 'NIFTY25NOV26FUT', exchange: 'NFO' }, { lastPrice: 24000 });
    expect(t.products).toEqual(['NRML', 'MIS']);
    expect([t.product, t.quantityText, t.name]).toEqual(['NRML', '65', 'NIFTY 25 NOV FUT']);
  });

  it('says why when the instrument cannot be had', async () => {
    const t = new TicketState(bridge());
    await t.open('BUY', { symbol: 'NOPE', exchange: 'NSE' });
    expect(t.instrumentError).toBe('Symbol NOPE not found in exchange NSE');
    expect(t.issues.map((i) => i.code)).toContain('no_instrument');
    expect(t.request).toBeUndefined();
  });

  it('keeps the instrument of the latest open when an earlier answer arrives late', async () => {
    const b = bridge();
    const slow = deferred<IpcResult<typeof SBIN>>();
    b.answer('market.symbol', (input) =>
      input?.symbol === 'SBIN' ? slow.promise : { ok: true, value: NIFTY_FUT },
    );
    const t = new TicketState(b);
    const first = t.open('BUY', { symbol: 'SBIN', exchange: 'NSE' });
    await t.open('BUY', { symbol: 'NIFTY25NOV26FUT', exchange: 'NFO' });
    slow.resolve({ ok: true, value: SBIN });
    await first;
    expect(t.instrument?.symbol).toBe('NIFTY25NOV26FUT');
  });

  it('keeps a quantity typed before the instrument arrived', async () => {
    const b = bridge();
    const slow = deferred<IpcResult<typeof SBIN>>();
    b.answer('market.symbol', () => slow.promise);
    const t = new TicketState(b);
    const opening = t.open('BUY', { symbol: 'SBIN', exchange: 'NSE' });
    t.quantityText = '25';
    slow.resolve({ ok: true, value: SBIN });
    await opening;
    expect(t.quantityText).toBe('25');
  });

  it('says so when the limits cannot be read, still validating the rest', async () => {
    const b = bridge().answer('settings.get', () => ({
      ok: false,
      error: { kind: 'internal', message: 'settings file unreadable' },
    }));
    const { t } = await sbinTicket(b);
    expect(t.limitsError).toBe(
      'Risk limits could not be read (settings file unreadable); they are still checked on send',
    );
    expect(t.issues).toEqual([]);
  });
});

describe('fields, units and steps', () => {
  it('shows only the fields the price type uses', async () => {
    const { t } = await sbinTicket();
    t.priceType = 'MARKET';
    expect(t.fields).toEqual({ price: false, trigger: false, disclosed: false });
    t.priceType = 'SL';
    expect(t.fields).toEqual({ price: true, trigger: true, disclosed: true });
    t.priceType = 'SL-M';
    expect(t.fields).toEqual({ price: false, trigger: true, disclosed: false });
  });

  it('converts between shares and lots, refusing a part lot with a notice', async () => {
    const t = new TicketState(bridge());
    await t.open('BUY', { symbol: 'NIFTY25NOV26FUT', exchange: 'NFO' }, { lastPrice: 24000 });
    t.quantityText = '195';
    expect(t.setUnit('lots')).toBe(true);
    expect([t.quantityText, t.quantityUnit, t.shares]).toEqual(['3', 'lots', 195]);
    expect(t.setUnit('shares')).toBe(true);
    t.quantityText = '100';
    expect(t.setUnit('lots')).toBe(false);
    expect([t.quantityText, t.quantityUnit]).toEqual(['100', 'shares']);
    expect(t.notice).toBe('100 is not a whole number of lots (lot size 65)');
  });

  it('steps price and trigger by one tick and quantity by one lot with the arrow keys', async () => {
    const { t } = await sbinTicket();
    expect(t.stepKey('price', 'ArrowUp')).toBe(true);
    expect(t.priceText).toBe('905.35');
    t.stepKey('price', 'ArrowDown');
    t.stepKey('price', 'ArrowDown');
    expect(t.priceText).toBe('905.25');
    t.priceType = 'SL';
    t.stepKey('trigger', 'ArrowUp');
    expect(t.triggerText).toBe('905.30');
    t.stepKey('quantity', 'ArrowUp');
    expect(t.quantityText).toBe('2');
    expect(t.stepKey('price', 'a')).toBe(false);
  });

  it('cannot step a price before the tick is known, and says so', () => {
    const t = new TicketState(bridge());
    expect(t.step('price', 1)).toBe(false);
    expect(t.notice).toBe('The tick size is not known yet: the price cannot be stepped');
  });
});

describe('sending once', () => {
  it('sends one order for two submits in a row (double Enter), counting the ignored one', async () => {
    const b = bridge();
    const answer = deferred<IpcResult<OrderIdResponse>>();
    b.answer('orders.place', () => answer.promise);
    const { t } = await sbinTicket(b);
    const first = t.submit();
    const second = t.submit();
    expect(t.sending).toBe(true);
    expect(await second).toEqual({ kind: 'ignored', reason: 'in_flight' });
    answer.resolve(placed('250101000001'));
    expect(await first).toEqual({ kind: 'sent', outcome: { kind: 'placed', orderid: '250101000001' } });
    expect(b.callsTo('orders.place')).toHaveLength(1);
    expect(t.ignoredSubmits).toBe(1);
    expect(t.sending).toBe(false);
  });

  it('sends a placed draft again only on a distinct press, after the confirm arm window', async () => {
    const b = bridge().answer('orders.place', () => placed('1'));
    const { t } = await sbinTicket(b);
    await t.submit();
    // Answered: not held "as it stands", but a press this soon is the same hurried one.
    expect(t.sent).toBe(false);
    expect(t.isSamePress()).toBe(true);
    expect(await t.submit()).toEqual({ kind: 'ignored', reason: 'same_press' });
    expect(b.callsTo('orders.place')).toHaveLength(1);
    await new Promise((r) => setTimeout(r, CONFIRM_ARM_MS + 30));
    expect(t.isSamePress()).toBe(false);
    expect((await t.submit()).kind).toBe('sent');
    expect(b.callsTo('orders.place')).toHaveLength(2);
    // A changed draft is a new order at once.
    t.quantityText = '2';
    expect((await t.submit()).kind).toBe('sent');
    expect(b.callsTo('orders.place')).toHaveLength(3);
    expect(t.ignoredSubmits).toBe(1);
  });

  it('sends the request the ticket shows, with no key', async () => {
    const b = bridge().answer('orders.place', () => placed('1'));
    const { t } = await sbinTicket(b);
    t.quantityText = '10';
    await t.submit();
    expect(b.callsTo('orders.place')[0]?.input).toEqual({
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY',
      quantity: 10,
      pricetype: 'LIMIT',
      product: 'CNC',
      price: 905.3,
      trigger_price: 0,
      disclosed_quantity: 0,
      strategy: 'desk',
    });
    expect(JSON.stringify(b.calls)).not.toMatch(/apikey/i);
  });

  it('sends nothing while the draft has issues, and answers with them', async () => {
    const b = bridge();
    const { t } = await sbinTicket(b);
    t.priceText = '905.33';
    const r = await t.submit();
    expect(r.kind).toBe('invalid');
    if (r.kind === 'invalid')
      expect(r.issues.map((i) => i.message)).toEqual(['Price must be a multiple of the tick 0.05']);
    expect(b.callsTo('orders.place')).toHaveLength(0);
  });

  it('never offers again an order whose outcome is unknown', async () => {
    const b = bridge().answer('orders.place', () => ({
      ok: false,
      error: { kind: 'unknown_outcome', message: 'unknown — reconciling' },
    }));
    const { t } = await sbinTicket(b);
    await t.submit();
    expect(t.outcome).toEqual({ kind: 'unknown', message: 'unknown — reconciling' });
    expect(await t.submit()).toEqual({ kind: 'ignored', reason: 'already_sent' });
    expect(b.callsTo('orders.place')).toHaveLength(1);
  });
});

describe('refusals', () => {
  it('keeps a risk refusal as text, and lets the corrected order go', async () => {
    const b = bridge().answer('orders.place', () => ({
      ok: false,
      error: { kind: 'risk', message: 'Order value ₹9,053.00 exceeds your limit of ₹5,000.00' },
    }));
    const { t } = await sbinTicket(b);
    t.quantityText = '10';
    await t.submit();
    expect(t.refusal).toBe('Order value ₹9,053.00 exceeds your limit of ₹5,000.00');
    expect(t.canConfirmDuplicate).toBe(false);
    // A refused draft is not "sent": sending it again is allowed (the trader may have raised the limit).
    expect(t.sent).toBe(false);
    expect(await t.confirmDuplicate()).toEqual({ kind: 'ignored', reason: 'no_duplicate_refusal' });
    expect(b.callsTo('orders.place')).toHaveLength(1);
  });

  it('offers a deliberate override of the duplicate guard for that very order', async () => {
    const b = bridge().answer('orders.place', (input) =>
      input?.confirmDuplicate
        ? placed('2')
        : { ok: false, error: { kind: 'duplicate', message: 'Same order sent 1.2 s ago' } },
    );
    const { t } = await sbinTicket(b);
    await t.submit();
    expect([t.refusal, t.canConfirmDuplicate]).toEqual(['Same order sent 1.2 s ago', true]);
    expect(await t.confirmDuplicate()).toEqual({ kind: 'sent', outcome: { kind: 'placed', orderid: '2' } });
    const calls = b.callsTo('orders.place');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.input).toMatchObject({ symbol: 'SBIN', confirmDuplicate: true });
    expect(t.refusal).toBeUndefined();
    expect(t.canConfirmDuplicate).toBe(false);
  });

  it('withdraws the override once the draft changes', async () => {
    const b = bridge().answer('orders.place', () => ({
      ok: false,
      error: { kind: 'duplicate', message: 'Same order sent 1.2 s ago' },
    }));
    const { t } = await sbinTicket(b);
    await t.submit();
    t.quantityText = '3';
    expect(t.canConfirmDuplicate).toBe(false);
    expect(await t.confirmDuplicate()).toEqual({ kind: 'ignored', reason: 'no_duplicate_refusal' });
    expect(b.callsTo('orders.place')).toHaveLength(1);
  });
});

describe('last price', () => {
  it("follows the instrument's market events, and only its own", async () => {
    const b = bridge();
    const { t } = await sbinTicket(b);
    const stop = t.listen();
    const tick = { seq: 1, profileId: 'paper', time: 0 };
    b.emit('market.ltp', { ...tick, symbol: 'INFY', exchange: 'NSE', ltp: 1500 });
    expect(t.lastPrice).toBe(905.32);
    b.emit('market.ltp', { ...tick, symbol: 'SBIN', exchange: 'NSE', ltp: 906.1 });
    expect(t.lastPrice).toBe(906.1);
    // Reopened on the same instrument without a price: the followed one stays; another drops it.
    await t.open('SELL', { symbol: 'SBIN', exchange: 'NSE' });
    expect([t.lastPrice, t.priceText]).toEqual([906.1, '906.10']);
    await t.open('SELL', { symbol: 'NIFTY25NOV26FUT', exchange: 'NFO' });
    expect(t.lastPrice).toBeUndefined();
    stop();
    expect(b.listenerCount('market.ltp')).toBe(0);
  });
});
