// A split of 105 at a freeze of 20 places six orders: one grouped alert with the six inside (one
// toast, one Alerts row), each child's fill updating the group rather than adding a toast; alerts
// that beat the split's answer are taken into the group; a basket is grouped the same way.
import { render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { AlertEvent, SplitOrderResponse } from '@contract';
import Alerts from '../../../src-renderer/src/panes/Alerts.svelte';
import { tapGroups } from '../../../src-renderer/src/lib/group-tap';
import { AlertLog } from '../../../src-renderer/src/state/alert-log.svelte';
import { ALERT_LOG } from '../../../src-renderer/src/state/context';
import { deskContext } from '../../support/component/desk-context';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, snapshot } from '../../support/component/session';

afterEach(() => document.body.replaceChildren());

const T0 = Date.UTC(2026, 10, 28, 4, 0, 0);
const CHILDREN = [20, 20, 20, 20, 20, 5];
const IDS = CHILDREN.map((_, i) => `S${i + 1}`);

const SPLIT: SplitOrderResponse = {
  status: 'success',
  split_size: 20,
  total_quantity: 105,
  results: CHILDREN.map((quantity, i) => ({
    order_num: i + 1,
    orderid: IDS[i],
    quantity,
    status: 'success',
  })),
  mode: 'analyze',
};

let seq = 20;
function fill(orderid: string, kind: 'fill' | 'partial' = 'fill', filled = 20): AlertEvent & { seq: number } {
  seq += 1;
  return {
    seq,
    id: `${orderid}:${kind}:${filled}`,
    time: T0 + seq * 10,
    kind,
    title: `BUY ${filled} SBIN @ ₹905.30 ${kind === 'fill' ? 'filled' : 'partly filled'}`,
    body: `NSE · MARKET · MIS · order ${orderid}`,
    sticky: false,
    orderid,
  };
}

async function desk() {
  const b = new FakeBridge()
    .answer('session.snapshot', () => ({ ok: true, value: snapshot({ seq: 10 }) }))
    .answer('orders.split', () => ({ ok: true, value: SPLIT }))
    .answer('orders.basket', () => ({
      ok: true,
      value: {
        status: 'success',
        mode: 'analyze',
        results: [
          { orderid: 'B1', status: 'success', symbol: 'SBIN' },
          { orderid: 'B2', status: 'success', symbol: 'INFY' },
        ],
      },
    }));
  const log = new AlertLog(b);
  log.start();
  await flush();
  const bridge = tapGroups(b, (g) => log.noteGroup(g));
  return { b, log, bridge };
}

const split = (bridge: ReturnType<typeof tapGroups>) =>
  bridge.invoke('orders.split', {
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    quantity: 105,
    splitsize: 20,
    pricetype: 'MARKET',
    product: 'MIS',
  });

describe('one alert per split or basket', () => {
  it('six children: one entry and one toast holding six, every fill updating it', async () => {
    const { b, log, bridge } = await desk();
    await split(bridge);
    for (const id of IDS) b.emit('alerts.raised', fill(id, 'fill', id === 'S6' ? 5 : 20));
    expect(log.entries).toHaveLength(1);
    expect(log.toasts).toHaveLength(1);
    const [group] = log.entries;
    expect(group!.title).toBe('Split BUY 105 SBIN: 6 of 6 filled');
    expect(group!.kind).toBe('fill');
    expect(group!.children!.map((c) => c.orderid)).toEqual(IDS);
    expect(log.unread).toBe(1);
  });

  it("the page's system notification is the group's one, replaced by each child's alert (one tag)", async () => {
    const b = new FakeBridge()
      .answer('session.snapshot', () => ({ ok: true, value: snapshot({ seq: 10 }) }))
      .answer('orders.split', () => ({ ok: true, value: SPLIT }));
    const notified: AlertEvent[] = [];
    const log = new AlertLog(b, { systemNotify: (a) => notified.push(a) });
    log.start();
    await flush();
    await split(tapGroups(b, (g) => log.noteGroup(g)));
    for (const id of IDS) b.emit('alerts.raised', fill(id));
    expect(new Set(notified.map((a) => a.id))).toEqual(new Set(['group:split-1']));
    expect(notified.every((a) => a.orderid === undefined)).toBe(true);
    expect(notified.at(-1)!.title).toBe('Split BUY 105 SBIN: 6 of 6 filled');
  });

  it("a child's partial then fill replaces its state in the group, not a second child", async () => {
    const { b, log, bridge } = await desk();
    await split(bridge);
    b.emit('alerts.raised', fill('S1', 'partial', 7));
    expect(log.entries[0]!.title).toBe('Split BUY 105 SBIN: 0 of 6 filled');
    b.emit('alerts.raised', fill('S1'));
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]!.children).toHaveLength(1);
    expect(log.entries[0]!.children![0]!.kind).toBe('fill');
    expect(log.entries[0]!.title).toBe('Split BUY 105 SBIN: 1 of 6 filled');
    expect(log.entries[0]!.kind).toBe('partial');
  });

  it('fills that beat the split answer are taken into the group, their toasts too', async () => {
    const { b, log, bridge } = await desk();
    b.emit('alerts.raised', fill('S1'));
    b.emit('alerts.raised', fill('S2'));
    expect(log.toasts).toHaveLength(2);
    await split(bridge);
    expect(log.entries.map((e) => e.id)).toEqual(['group:split-1']);
    expect(log.toasts.map((t) => t.id)).toEqual(['group:split-1']);
    for (const id of IDS.slice(2)) b.emit('alerts.raised', fill(id));
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]!.children).toHaveLength(6);
  });

  it('a basket groups its legs; alerts of other orders stay on their own', async () => {
    const { b, log, bridge } = await desk();
    await bridge.invoke('orders.basket', {
      orders: [
        { symbol: 'SBIN', exchange: 'NSE', action: 'BUY', quantity: 1, pricetype: 'MARKET', product: 'MIS' },
        { symbol: 'INFY', exchange: 'NSE', action: 'BUY', quantity: 1, pricetype: 'MARKET', product: 'MIS' },
      ],
    });
    b.emit('alerts.raised', fill('B1'));
    b.emit('alerts.raised', fill('B2'));
    b.emit('alerts.raised', fill('X9'));
    expect(log.entries.map((e) => e.title)).toEqual([
      'BUY 20 SBIN @ ₹905.30 filled',
      'Basket of 2 legs: 2 of 2 filled',
    ]);
  });

  it("a child's rejection makes the group sticky; dismissing it dismisses that child in the core", async () => {
    const { b, log, bridge } = await desk();
    b.answer('alerts.dismiss', () => ({ ok: true, value: { paused: false, muted: [], sticky: [] } }));
    await split(bridge);
    b.emit('alerts.raised', fill('S1'));
    b.emit('alerts.raised', { ...fill('S2'), id: 'S2:rejection:0', kind: 'rejection', sticky: true });
    const [group] = log.entries;
    expect(group).toMatchObject({
      kind: 'rejection',
      sticky: true,
      title: 'Split BUY 105 SBIN: 1 of 6 filled · 1 rejected',
    });
    expect(await log.dismiss(group!.id)).toBe(true);
    expect(b.callsTo('alerts.dismiss')).toEqual([
      { channel: 'alerts.dismiss', input: { id: 'S2:rejection:0' } },
    ]);
    expect(log.entries).toEqual([]);
  });

  it('the Alerts pane shows one row with the six order ids inside', async () => {
    const { b, log, bridge } = await desk();
    await split(bridge);
    for (const id of IDS) b.emit('alerts.raised', fill(id));
    render(Alerts, { context: deskContext(b, [[ALERT_LOG, log]]) });
    const rows = screen.getAllByTestId('alert-row');
    expect(rows).toHaveLength(1);
    const children = within(rows[0]!).getByTestId('alert-children');
    expect(within(children).getByText('6 orders')).toBeInTheDocument();
    expect(children.querySelectorAll('li')).toHaveLength(6);
    for (const id of IDS) expect(children.textContent).toContain(id);
  });
});
