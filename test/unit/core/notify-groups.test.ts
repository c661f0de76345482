// The timing rules of a split's or basket's one OS notification (core/alerts/notify-groups.ts): the
// window, the follow-up on completion, rejections at once, alerts that beat the send's answer, and
// the bound on holding them. The flows against the paper gateway are in
// test/integration/core/grouped-notifications.test.ts.
import { describe, expect, it } from 'vitest';
import type { GroupChildKind } from '../../../src-main/shared/alert-group-title.js';
import {
  createNotifyGroups,
  GROUP_WINDOW_MS,
  HOLD_MS,
  sentChildren,
  type SentChild,
  type Shown,
} from '../../../src-main/core/alerts/notify-groups.js';
import { ManualClock } from '../../../src-main/gateway/index.js';

const shape = { symbol: 'INFY', exchange: 'NSE', action: 'BUY', quantity: 20 };
const child = (orderid: string): SentChild => ({ ...shape, orderid });

function setup() {
  const clock = new ManualClock(0);
  const shown: Shown[] = [];
  const groups = createNotifyGroups({ notifier: { notify: (n) => shown.push(n) }, clock });
  const alert = (orderid: string, kind: GroupChildKind, order = shape) =>
    groups.notify({ orderid, order, kind, shown: { kind, title: `${orderid} ${kind}`, body: '', orderid } });
  return { clock, shown, groups, alert, titles: () => shown.map((n) => n.title) };
}

describe('one notification per send', () => {
  it('shows the count so far after the window, then once more when the group completes', async () => {
    const { clock, groups, alert, titles } = setup();
    groups.begin('Split BUY 60 INFY').placed(['a', 'b', 'c'].map(child));
    alert('a', 'fill');
    expect(titles()).toEqual([]);
    await clock.advance(GROUP_WINDOW_MS);
    expect(titles()).toEqual(['Split BUY 60 INFY: 1 of 3 filled']);
    alert('b', 'partial');
    alert('b', 'fill');
    await clock.advance(GROUP_WINDOW_MS * 2);
    expect(titles()).toHaveLength(1);
    alert('c', 'fill');
    expect(titles()).toEqual(['Split BUY 60 INFY: 1 of 3 filled', 'Split BUY 60 INFY: 3 of 3 filled']);
  });

  it('raises a rejection at once; one turn’s rejections make one notification', async () => {
    const { shown, groups, alert } = setup();
    groups.begin('Split BUY 60 INFY').placed(['a', 'b', 'c'].map(child));
    alert('a', 'rejection');
    alert('b', 'rejection');
    await Promise.resolve();
    expect(shown).toEqual([
      expect.objectContaining({
        kind: 'rejection',
        title: 'Split BUY 60 INFY: 0 of 3 filled · 2 rejected',
        sticky: true,
        id: 'group:send-1',
      }),
    ]);
  });

  it('groups a fill that beat the send’s answer', async () => {
    const { clock, groups, alert, titles } = setup();
    const send = groups.begin('Basket of 2 legs');
    alert('a', 'fill');
    expect(titles()).toEqual([]);
    send.placed(['a', 'b'].map(child));
    alert('b', 'fill');
    await clock.advance(HOLD_MS * 2);
    expect(titles()).toEqual(['Basket of 2 legs: 2 of 2 filled']);
  });

  it('holds an alert no longer than HOLD_MS, then it goes on its own, once', async () => {
    const { clock, groups, alert, titles } = setup();
    const send = groups.begin('Split BUY 40 INFY');
    alert('x', 'fill');
    await clock.advance(HOLD_MS - 1);
    expect(titles()).toEqual([]);
    await clock.advance(1);
    expect(titles()).toEqual(['x fill']);
    send.placed(['a', 'b'].map(child));
    await clock.advance(HOLD_MS);
    expect(titles()).toEqual(['x fill']);
  });

  it('tells a rejection before the answer at once, and counts it in its group without a repeat', async () => {
    const { clock, groups, alert, titles } = setup();
    const send = groups.begin('Split BUY 40 INFY');
    alert('a', 'rejection');
    expect(titles()).toEqual(['a rejection']);
    send.placed(['a', 'b'].map(child));
    alert('b', 'fill');
    await clock.advance(GROUP_WINDOW_MS);
    expect(titles()).toEqual(['a rejection', 'Split BUY 40 INFY: 1 of 2 filled · 1 rejected']);
  });

  it('a send that placed one order is no group: its fill is its own', () => {
    const { groups, alert, titles } = setup();
    groups.begin('Split BUY 20 INFY').placed([child('a')]);
    alert('a', 'fill');
    expect(titles()).toEqual(['a fill']);
  });

  it('keeps alerts not of an answered send held while another send is in flight', async () => {
    const { clock, groups, alert, titles } = setup();
    const first = groups.begin('Split BUY 40 INFY');
    const second = groups.begin('Basket of 2 legs');
    alert('p', 'fill');
    first.placed(['a', 'b'].map(child));
    expect(titles()).toEqual([]);
    second.placed(['p', 'q'].map(child));
    alert('q', 'fill');
    await clock.advance(HOLD_MS * 2);
    expect(titles()).toEqual(['Basket of 2 legs: 2 of 2 filled']);
  });

  it('counts children the answer refused, and takes the book’s rejected order of that shape quietly', async () => {
    const { shown, groups, alert, titles } = setup();
    const children = sentChildren(
      [shape, shape, { ...shape, quantity: 5 }],
      [
        { orderid: 'a', status: 'success' },
        { status: 'error', message: 'Insufficient funds' },
        { status: 'error', message: 'Insufficient funds' },
      ],
    );
    expect(children[1]).toEqual({ ...shape, refused: 'Insufficient funds' });
    groups.begin('Split BUY 45 INFY').placed(children);
    await Promise.resolve();
    expect(shown).toEqual([
      expect.objectContaining({
        title: 'Split BUY 45 INFY: 0 of 3 filled · 2 rejected',
        body: 'Latest: BUY 5 INFY rejected: Insufficient funds',
      }),
    ]);
    // Another order of a refused child's shape that fills is not that child: its own notification.
    alert('z', 'fill');
    // The book shows the refused children as rejected orders with ids of their own.
    alert('r1', 'rejection');
    alert('r2', 'rejection', { ...shape, quantity: 5 });
    await Promise.resolve();
    expect(titles()).toHaveLength(2);
    alert('a', 'fill');
    expect(titles()).toEqual([
      'Split BUY 45 INFY: 0 of 3 filled · 2 rejected',
      'z fill',
      'Split BUY 45 INFY: 1 of 3 filled · 2 rejected',
    ]);
  });
});
