// The regular ticket's protection row as a trader uses it: the segment's default picked on load, a
// template filling the fields and an edit making them custom, problems in words that stop the send,
// the estimated levels on the tick, the one acknowledgement per session, the send as place → protect
// with the entry's own fields, an unknown outcome and a refused protect said loudly, the protection
// key, the modes where protection is not offered, and who holds the bracket (a GTT OCO offered for a
// CNC/NRML BUY with both legs, sent as `kind` with the freeze quantity).
import { fireEvent, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IpcResult, OrderIdResponse, ProtectionSettings } from '@contract';
import { settle } from '../../support/component/desk-fixture';
import { deferred } from '../../support/component/fake-bridge';
import { NIFTY_FUT, SBIN } from '../../support/component/instruments';
import { mountTicketPane, placed } from '../../support/component/ticket-mount';

afterEach(() => document.body.replaceChildren());

const TEMPLATES: ProtectionSettings = {
  templates: [
    {
      name: 'Scalp 10/20',
      spec: { stop: { by: 'points', value: '10' }, target: { by: 'points', value: '20' } },
    },
    {
      name: 'Swing 1 %/3 %',
      spec: { stop: { by: 'percent', value: '1' }, target: { by: 'percent', value: '3' } },
    },
  ],
  defaults: { fno: 'Scalp 10/20' },
};

async function mount(open = SBIN, protection: ProtectionSettings = TEMPLATES) {
  const m = await mountTicketPane({
    instruments: [SBIN, NIFTY_FUT],
    open,
    lastPrice: open === SBIN ? 905.3 : 22350,
    before: (f) => {
      f.settings.protection = structuredClone(protection);
    },
  });
  m.bridge.answer('orders.protect', (input) => ({ ok: true, value: { orderid: input?.orderid ?? '' } }));
  return m;
}

const picker = () => screen.getByLabelText('Protection', { selector: 'select' }) as HTMLSelectElement;
const field = (id: string) => document.getElementById(`ticket-protection-${id}`) as HTMLInputElement;
const qty = () => screen.getByLabelText('Qty') as HTMLInputElement;
const enter = (el: Element, init: KeyboardEventInit = {}) => fireEvent.keyDown(el, { key: 'Enter', ...init });
const pick = async (value: string) => {
  picker().value = value;
  await fireEvent.change(picker());
};
const type = async (el: HTMLInputElement, text: string) => {
  el.value = text;
  await fireEvent.input(el);
};
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Enter, the acknowledgement, and (after the arm window) Enter on it: the session's first protected send. */
async function sendAcknowledged(): Promise<void> {
  await enter(qty());
  await settle();
  const ack = screen.getByRole('group', { name: 'Acknowledge core-held protection' });
  await wait(320);
  await enter(within(ack).getByRole('button', { name: /I understand/ }));
  await settle();
}

describe('the protection row', () => {
  it('picks the segment default on load (F&O), None where the segment has none (equity)', async () => {
    const a = await mount(NIFTY_FUT);
    expect(picker().value).toBe('t:Scalp 10/20');
    expect(field('stop').value).toBe('10');
    expect(field('target').value).toBe('20');
    a.view.unmount();
    await mount(SBIN);
    // None costs the ticket no height: the row stays shut behind "Protect ▸" in the quantity's label row.
    expect(screen.queryByTestId('protection-row')).toBeNull();
    const toggle = screen.getByRole('button', { name: 'Protection: stop and target' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await fireEvent.click(toggle);
    await settle();
    expect(picker().value).toBe('none');
    expect(document.activeElement).toBe(picker());
    expect(document.getElementById('ticket-protection-stop')).toBeNull();
    await pick('t:Scalp 10/20');
    expect(field('stop').value).toBe('10');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
  });

  it('a template fills the fields; an edit shows it as custom; levels are estimated on the tick', async () => {
    await mount(NIFTY_FUT);
    expect(screen.queryByTestId('protection-custom')).toBeNull();
    // LIMIT at 22,350.00 on a 0.10 tick: 10 points under, 20 over.
    expect(screen.getByTestId('protection-levels').textContent).toMatch(
      /SL ≈ 22,340\.00\s*·\s*TG ≈ 22,370\.00\s*from the price/,
    );
    await pick('t:Swing 1 %/3 %');
    expect(field('stop').value).toBe('1');
    // 1 % of 22,350 = 223.5 → 22,126.50; 3 % = 670.5 → 23,020.50.
    expect(screen.getByTestId('protection-levels').textContent).toMatch(/SL ≈ 22,126\.50 · TG ≈ 23,020\.50/);
    await type(field('stop'), '0.75');
    expect(screen.getByTestId('protection-custom').textContent).toBe('custom');
    // 0.75 % = 167.625: the stop 22,182.375 lands up on the tick, toward the fill.
    expect(screen.getByTestId('protection-levels').textContent).toContain('SL ≈ 22,182.40');
    expect(screen.getByTestId('protection-oco').textContent).toBe('core-held OCO: keep OrderDesk running');
  });

  it('a protection that does not parse is said in words and nothing is sent', async () => {
    const { bridge } = await mount(NIFTY_FUT);
    await type(field('stop'), '10x');
    expect(screen.getByTestId('protection-problems').textContent).toBe(
      'The stop must be a number, at most 4 decimals (10x is not)',
    );
    expect(field('stop').getAttribute('aria-invalid')).toBe('true');
    await enter(qty());
    await settle();
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
    expect(screen.getByTestId('send-said').textContent).toContain('Protection: The stop must be a number');
    expect(screen.getByTestId('send-reasons').textContent).toContain('Protection is not valid');
  });

  it('says a picked protection is not offered in Smart, Split and Basket', async () => {
    const { modes } = await mount(NIFTY_FUT);
    for (const [mode, word] of [
      ['smart', 'Smart'],
      ['split', 'Split'],
      ['basket', 'Basket'],
    ] as const) {
      modes.set(mode);
      await settle();
      expect(screen.queryByTestId('protection-row')).toBeNull();
      expect(screen.getByTestId('protection-off').textContent).toMatch(
        new RegExp(`Regular orders only: not in ${word}, where the\\s+order goes without Scalp 10/20`),
      );
    }
  });
});

describe('sending with protection', () => {
  it('asks once per session to acknowledge the core-held OCO; a hurried Enter is not the acknowledgement', async () => {
    const { bridge, ticket } = await mount(NIFTY_FUT);
    bridge.answer('orders.place', () => placed('501'));
    // The clock the arm window reads, held still: the hurried press is hurried however slow the run.
    const clock = vi.spyOn(performance, 'now').mockReturnValue(10_000);
    await enter(qty());
    await settle();
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
    const ack = screen.getByRole('group', { name: 'Acknowledge core-held protection' });
    expect(ack.textContent).toContain('core-held OCO: keep OrderDesk running');
    const button = within(ack).getByRole('button', { name: /I understand/ });
    expect(document.activeElement).toBe(button);
    // The same hurried press: said, not taken.
    await enter(button);
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
    expect(ack.textContent).toContain('Press Enter again to acknowledge');
    clock.mockReturnValue(10_400);
    await enter(button);
    await settle();
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    expect(ticket.protection.acknowledged).toBe(true);
    clock.mockRestore();
    // The second protected send of the session goes at once.
    await type(qty(), '130');
    await wait(320);
    await enter(qty());
    await settle();
    expect(screen.queryByRole('group', { name: 'Acknowledge core-held protection' })).toBeNull();
    expect(bridge.callsTo('orders.place')).toHaveLength(2);
    expect(bridge.callsTo('orders.protect')).toHaveLength(2);
  });

  it('Esc on the acknowledgement steps back, sending nothing', async () => {
    const { bridge } = await mount(NIFTY_FUT);
    await enter(qty());
    await settle();
    await fireEvent.keyDown(qty(), { key: 'Escape' });
    await settle();
    expect(screen.queryByRole('group', { name: 'Acknowledge core-held protection' })).toBeNull();
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
    expect(screen.getByText('Not sent')).toBeInTheDocument();
  });

  it('places the entry, then attaches the protection to its order id with the entry fields and the tick', async () => {
    const { bridge } = await mount(NIFTY_FUT);
    const answer = deferred<IpcResult<OrderIdResponse>>();
    bridge.answer('orders.place', () => answer.promise);
    await enter(qty());
    await settle();
    await wait(320);
    await enter(screen.getByRole('button', { name: /I understand/ }));
    // Nothing is protected before the entry's answer names its order.
    expect(bridge.callsTo('orders.protect')).toHaveLength(0);
    answer.resolve(placed('777'));
    await settle();
    expect(bridge.calls.map((c) => c.channel).filter((c) => c.startsWith('orders.'))).toEqual([
      'orders.place',
      'orders.protect',
    ]);
    expect(bridge.callsTo('orders.protect')[0]?.input).toEqual({
      orderid: '777',
      symbol: 'NIFTY25NOV26FUT',
      exchange: 'NFO',
      product: 'NRML',
      action: 'BUY',
      tick: 0.1,
      freeze: 1800,
      kind: 'core',
      spec: { stop: { by: 'points', value: '10' }, target: { by: 'points', value: '20' } },
    });
    expect(screen.getByTestId('protection-outcome').textContent).toContain(
      'Protected: SL 10 pts · TG 20 pts · core-held OCO',
    );
  });

  it('an unknown outcome attaches nothing and says so loudly; no order id is guessed', async () => {
    const { bridge } = await mount(NIFTY_FUT);
    bridge.answer('orders.place', () => ({
      ok: false,
      error: { kind: 'unknown_outcome', message: "The order's outcome is unknown: timeout" },
    }));
    await sendAcknowledged();
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    expect(bridge.callsTo('orders.protect')).toHaveLength(0);
    const line = screen.getByTestId('protection-outcome');
    expect(line.getAttribute('role')).toBe('alert');
    expect(line.textContent).toContain("Protection NOT attached: the entry's outcome is unknown");
  });

  it('a refused protect is shown loudly: the entry is live without protection', async () => {
    const { bridge } = await mount(NIFTY_FUT);
    bridge.answer('orders.place', () => placed('901'));
    bridge.answer('orders.protect', () => ({
      ok: false,
      error: { kind: 'invalid_input', message: 'the stop 22340 of a BUY must be below its fill 22330' },
    }));
    await sendAcknowledged();
    const line = screen.getByTestId('protection-outcome');
    expect(line.getAttribute('role')).toBe('alert');
    expect(line.textContent).toContain(
      'Protection NOT attached: the stop 22340 of a BUY must be below its fill 22330. Order 901 is live without protection',
    );
  });

  it('with None picked the entry goes as before: no acknowledgement, no protect', async () => {
    const { bridge } = await mount(NIFTY_FUT);
    bridge.answer('orders.place', () => placed('42'));
    await pick('none');
    await enter(qty());
    await settle();
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    expect(bridge.callsTo('orders.protect')).toHaveLength(0);
  });
});

describe('the protection key (Shift+Enter)', () => {
  it("sends with the segment's default, replacing the row's pick", async () => {
    const { bridge, ticket } = await mount(NIFTY_FUT);
    bridge.answer('orders.place', () => placed('55'));
    await pick('none');
    ticket.protection.acknowledged = true;
    await enter(qty(), { shiftKey: true });
    await settle();
    expect(picker().value).toBe('t:Scalp 10/20');
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    expect(bridge.callsTo('orders.protect')[0]?.input).toMatchObject({ orderid: '55' });
  });

  it('with no default for the segment: says so and sends nothing', async () => {
    const { bridge } = await mount(SBIN);
    bridge.answer('orders.place', () => placed('56'));
    await enter(qty(), { shiftKey: true });
    await settle();
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
    expect(screen.getByTestId('protection-hint').textContent).toContain(
      'No default protection for equity: pick one in Settings ▸ Protection. Nothing sent',
    );
  });
});

describe('who holds the bracket (held: core OCO | GTT OCO)', () => {
  const held = () => screen.queryByRole('group', { name: 'Protection held by' });
  const kindRadio = (name: 'core OCO' | 'GTT OCO') =>
    within(held()!).getByRole('radio', { name }) as HTMLInputElement;
  const oco = () => screen.getByTestId('protection-oco').textContent;
  const radio = (group: string, name: string | RegExp) =>
    within(screen.getByRole('group', { name: group })).getByRole('radio', { name }) as HTMLInputElement;
  const choose = async (group: string, name: string | RegExp) => {
    await fireEvent.click(radio(group, name));
    await settle();
  };

  it('is offered only for a CNC or NRML BUY with both a stop and a target', async () => {
    await mount(NIFTY_FUT);
    // NRML BUY with Scalp 10/20: offered, core chosen.
    expect(held()).not.toBeNull();
    expect(kindRadio('core OCO').checked).toBe(true);
    expect(kindRadio('GTT OCO').checked).toBe(false);
    expect(oco()).toBe('core-held OCO: keep OrderDesk running');
    // A SELL: a GTT OCO closes a long only.
    await choose('Side', /^SELL/);
    expect(held()).toBeNull();
    expect(oco()).toBe('core-held OCO: keep OrderDesk running');
    await choose('Side', /^BUY/);
    expect(held()).not.toBeNull();
    // MIS: a GTT outlives the day, MIS does not.
    await choose('Product', 'MIS');
    expect(held()).toBeNull();
    await choose('Product', 'NRML');
    expect(held()).not.toBeNull();
    // A stop alone: a GTT OCO needs both legs.
    await type(field('target'), '');
    expect(held()).toBeNull();
    expect(oco()).toBe('core-held OCO: keep OrderDesk running');
    await type(field('target'), '20');
    expect(held()).not.toBeNull();
    // None: nothing to hold.
    await pick('none');
    expect(held()).toBeNull();
  });

  it('CNC equity: GTT chosen says so; a SELL falls back to core-held and its label', async () => {
    const { ticket } = await mount(SBIN);
    await fireEvent.click(screen.getByRole('button', { name: 'Protection: stop and target' }));
    await settle();
    await pick('t:Scalp 10/20');
    await choose('Product', 'CNC');
    expect(held()).not.toBeNull();
    await fireEvent.click(kindRadio('GTT OCO'));
    await settle();
    expect(kindRadio('GTT OCO').checked).toBe(true);
    expect(oco()).toBe('GTT OCO: rests at the gateway, holds with OrderDesk closed');
    expect(ticket.protection.kind).toBe('gtt');
    await choose('Side', /^SELL/);
    expect(held()).toBeNull();
    expect(ticket.protection.kind).toBe('core');
    expect(oco()).toBe('core-held OCO: keep OrderDesk running');
  });

  it('the choice is reachable by keyboard: two radios of one group, in the tab order', async () => {
    await mount(NIFTY_FUT);
    const core = kindRadio('core OCO');
    core.focus();
    expect(document.activeElement).toBe(core);
    expect(core.tabIndex).not.toBe(-1);
    expect(core.name).toBe(kindRadio('GTT OCO').name);
  });

  it('sends a GTT OCO with kind and the freeze quantity, without the core-held acknowledgement', async () => {
    const { bridge, ticket } = await mount(NIFTY_FUT);
    bridge.answer('orders.place', () => placed('888'));
    await fireEvent.click(kindRadio('GTT OCO'));
    await settle();
    expect(ticket.protection.needsAck).toBe(false);
    await enter(qty());
    await settle();
    expect(screen.queryByRole('group', { name: 'Acknowledge core-held protection' })).toBeNull();
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    expect(bridge.callsTo('orders.protect')[0]?.input).toEqual({
      orderid: '888',
      symbol: 'NIFTY25NOV26FUT',
      exchange: 'NFO',
      product: 'NRML',
      action: 'BUY',
      tick: 0.1,
      freeze: 1800,
      kind: 'gtt',
      spec: { stop: { by: 'points', value: '10' }, target: { by: 'points', value: '20' } },
    });
    expect(screen.getByTestId('protection-outcome').textContent).toContain(
      'Protected: SL 10 pts · TG 20 pts · GTT OCO',
    );
    // Not acknowledged: the next core-held send still asks.
    expect(ticket.protection.acknowledged).toBe(false);
    await choose('Product', 'MIS');
    expect(ticket.protection.needsAck).toBe(true);
  });

  it('an instrument without a freeze quantity sends no freeze; a new symbol starts core-held', async () => {
    const { bridge, ticket } = await mount(SBIN);
    bridge.answer('orders.place', () => placed('321'));
    ticket.protection.acknowledged = true;
    await fireEvent.click(screen.getByRole('button', { name: 'Protection: stop and target' }));
    await settle();
    await pick('t:Scalp 10/20');
    await choose('Product', 'CNC');
    await fireEvent.click(kindRadio('GTT OCO'));
    await settle();
    await enter(qty());
    await settle();
    const input = bridge.callsTo('orders.protect')[0]?.input;
    expect(input).toMatchObject({ orderid: '321', product: 'CNC', action: 'BUY', kind: 'gtt' });
    expect(input).not.toHaveProperty('freeze');
    await ticket.open(
      'BUY',
      { symbol: NIFTY_FUT.symbol, exchange: NIFTY_FUT.exchange },
      { lastPrice: 22350 },
    );
    await settle();
    expect(ticket.protection.held).toBe('core');
    expect(kindRadio('core OCO').checked).toBe(true);
  });
});
