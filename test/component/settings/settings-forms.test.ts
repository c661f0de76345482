// The Settings pane's forms: reasons in words beside the field (this form's reading and main's
// refusal by field path), what a valid save sends, the soft daily limits' display, and key remapping
// on the desk's key map (a conflict is shown and nothing saved; a free key is saved).
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type DailyLimitsState, type Settings, type SettingsPatch } from '@contract';
import DailyLimitsStatus from '../../../src-renderer/src/components/settings/DailyLimitsStatus.svelte';
import HotkeyRemap from '../../../src-renderer/src/components/settings/HotkeyRemap.svelte';
import NotificationRules from '../../../src-renderer/src/components/settings/NotificationRules.svelte';
import RiskLimitsForm from '../../../src-renderer/src/components/settings/RiskLimitsForm.svelte';
import { readAmount, readPercent, readSeconds, readWhole } from '../../../src-renderer/src/lib/settings-form';
import { SettingsState } from '../../../src-renderer/src/state/settings.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush } from '../../support/component/session';

const DAILY: DailyLimitsState = {
  day: '2026-11-20',
  ordersToday: 1,
  orderLimit: 0,
  lossLimit: 0,
  dayPnl: '0.00',
  reached: null,
};

/** A fake main keeping settings; `refuse` answers settings.update with a refusal instead. */
async function setup(refuse?: { message: string; fields: { path: string; message: string }[] }) {
  const bridge = new FakeBridge();
  let settings: Settings = structuredClone(DEFAULT_SETTINGS);
  const updates: SettingsPatch[] = [];
  bridge
    .answer('settings.get', () => ({ ok: true, value: settings }))
    .answer('risk.daily', () => ({ ok: true, value: DAILY }))
    .answer('settings.update', (patch) => {
      if (refuse) return { ok: false, error: { kind: 'invalid_input', ...refuse } };
      updates.push(patch as SettingsPatch);
      const p = patch as Partial<Settings>;
      settings = {
        ...settings,
        ...(p.risk ? { risk: { ...settings.risk, ...p.risk } } : {}),
        ...(p.alerts ? { alerts: { ...settings.alerts, ...p.alerts } } : {}),
        ...(p.hotkeys ? { hotkeys: { ...settings.hotkeys, ...p.hotkeys } } : {}),
      };
      return { ok: true, value: settings };
    });
  const model = new SettingsState(bridge);
  await model.load();
  return { bridge, model, updates };
}

describe('risk limits form', () => {
  it('shows why a field cannot be read beside that field, and sends nothing', async () => {
    const { model, updates } = await setup();
    render(RiskLimitsForm, { props: { model } });
    await flush();
    await fireEvent.input(screen.getByTestId('risk-maxValuePerOrder'), { target: { value: '5 lakh' } });
    await fireEvent.input(screen.getByTestId('risk-dailyOrderCount'), { target: { value: '2.5' } });
    await fireEvent.click(screen.getByTestId('risk-save'));
    await flush();
    const value = screen.getByTestId('risk-maxValuePerOrder');
    expect(value.getAttribute('aria-invalid')).toBe('true');
    // The reason is the field's description: a screen reader reads it with the field.
    const note = document.getElementById(value.getAttribute('aria-describedby') ?? '');
    expect(note?.textContent).toBe(
      'Max value per order: "5 lakh" is not an amount (write it as 5000 or 5,000.50)',
    );
    expect(screen.getByTestId('risk-dailyOrderCount-problem').textContent).toBe(
      'Daily order count: "2.5" is not a whole number',
    );
    expect(updates).toEqual([]);
  });

  it("shows main's refusal beside the field it names", async () => {
    const { model } = await setup({
      message: 'invalid settings: risk.maxQuantityPerOrder: Max quantity per order must be at least 1',
      fields: [{ path: 'risk.maxQuantityPerOrder', message: 'Max quantity per order must be at least 1' }],
    });
    render(RiskLimitsForm, { props: { model } });
    await flush();
    await fireEvent.input(screen.getByTestId('risk-maxQuantityPerOrder'), { target: { value: '0' } });
    await fireEvent.click(screen.getByTestId('risk-save'));
    await flush();
    expect(screen.getByTestId('risk-maxQuantityPerOrder-problem').textContent).toBe(
      'Max quantity per order must be at least 1',
    );
    expect(screen.queryByTestId('risk-saved')).toBeNull();
  });

  it('sends amounts as traders write them (en-IN commas, seconds) and a per-symbol limit', async () => {
    const { model, updates } = await setup();
    render(RiskLimitsForm, { props: { model } });
    await flush();
    await fireEvent.input(screen.getByTestId('risk-maxValuePerOrder'), {
      target: { value: '₹10,00,000.50' },
    });
    await fireEvent.input(screen.getByTestId('risk-duplicateWindowMs'), { target: { value: '2.5' } });
    await fireEvent.input(screen.getByTestId('risk-dailyOrderCount'), { target: { value: '2' } });
    await fireEvent.click(screen.getByTestId('override-add'));
    await fireEvent.input(screen.getByTestId('override-symbol-0'), { target: { value: 'sbin' } });
    await fireEvent.input(screen.getByTestId('override-qty-0'), { target: { value: '50' } });
    await fireEvent.input(screen.getByLabelText(/^Max value per order for /), {
      target: { value: '2,50,000' },
    });
    await fireEvent.input(screen.getByLabelText(/^Max distance from LTP for /), { target: { value: '2' } });
    await fireEvent.click(screen.getByTestId('risk-save'));
    await flush();
    expect(updates).toEqual([
      {
        risk: {
          maxQuantityPerOrder: 10_000,
          maxValuePerOrder: 1_000_000.5,
          priceBandPercent: 5,
          duplicateWindowMs: 2500,
          dailyOrderCount: 2,
          dailyLossLimit: 0,
          symbolOverrides: [
            {
              symbol: 'sbin',
              exchange: 'NSE',
              maxQuantityPerOrder: 50,
              maxValuePerOrder: 250_000,
              priceBandPercent: 2,
            },
          ],
        },
      },
    ]);
    expect(screen.getByTestId('risk-saved').textContent).toMatch(/saved/);
  });

  it("a per-symbol row main refuses names its row's problem", async () => {
    const { model } = await setup({
      message: 'invalid',
      fields: [
        { path: 'risk.symbolOverrides', message: 'An instrument can have one set of per-symbol limits' },
      ],
    });
    render(RiskLimitsForm, { props: { model } });
    await flush();
    await fireEvent.click(screen.getByTestId('override-add'));
    await fireEvent.click(screen.getByTestId('risk-save'));
    await flush();
    // An empty symbol is caught here first, in its row.
    expect(screen.getByTestId('override-problem-0').textContent).toBe(
      'Symbol: enter the instrument’s trading symbol',
    );
    await fireEvent.input(screen.getByTestId('override-symbol-0'), { target: { value: 'INFY' } });
    await fireEvent.click(screen.getByTestId('risk-save'));
    await flush();
    expect(screen.getByTestId('risk-problem').textContent).toBe(
      'An instrument can have one set of per-symbol limits',
    );
  });
});

describe('daily limits display', () => {
  it('counts orders against the limit, shows the P&L in en-IN rupees and says the limits are soft', () => {
    render(DailyLimitsStatus, {
      props: {
        daily: {
          ...DAILY,
          ordersToday: 2,
          orderLimit: 2,
          lossLimit: 5000,
          dayPnl: '-1250.5',
          reached: 'dailyOrderCount',
        },
      },
    });
    const box = screen.getByTestId('daily-status');
    expect(screen.getByTestId('daily-orders').textContent).toBe('2 of 2');
    expect(screen.getByTestId('daily-pnl').textContent).toBe('-₹1,250.50');
    expect(within(box).getByText('loss limit ₹5,000.00')).toBeTruthy();
    expect(screen.getByTestId('daily-reached').textContent).toBe(
      'Daily order count reached: only exits (orders that reduce an open position) until the IST day ends',
    );
    expect(box.textContent).toMatch(/Soft: holds while OrderDesk runs/);
  });

  it('says when no limit is set and nothing is reached', () => {
    render(DailyLimitsStatus, { props: { daily: { ...DAILY, dayPnl: null } } });
    expect(screen.getByTestId('daily-orders').textContent).toBe('1');
    expect(screen.getByText('no count limit')).toBeTruthy();
    expect(screen.getByTestId('daily-pnl').textContent).toBe('not read yet');
    expect(screen.queryByTestId('daily-reached')).toBeNull();
  });
});

describe('notification rules', () => {
  it('saves the rule chosen for one event only', async () => {
    const { model, updates } = await setup();
    render(NotificationRules, { props: { model } });
    await fireEvent.click(screen.getByTestId('rule-partial-sound'));
    await flush();
    expect(updates).toEqual([{ alerts: { partial: 'sound' } }]);
    expect((screen.getByTestId('rule-partial-sound') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId('rule-fill-os') as HTMLInputElement).checked).toBe(true);
  });
});

describe('key remapping', () => {
  it('refuses a key another action holds, in words, and saves a free one', async () => {
    const { model, updates } = await setup();
    render(HotkeyRemap, { props: { model } });
    const change = screen.getByTestId('hotkey-change-ticket.buy');
    await fireEvent.click(change);
    // F2 is Sell in the NEST preset.
    await fireEvent.keyDown(change, { key: 'F2', code: 'F2' });
    await flush();
    expect(screen.getByTestId('hotkey-conflicts').textContent).toMatch(/F2/);
    expect(updates).toEqual([]);
    expect(screen.getByTestId('hotkey-keys-ticket.buy').textContent).toBe('F1');

    await fireEvent.click(change);
    await fireEvent.keyDown(change, { key: 'b', code: 'KeyB', ctrlKey: true });
    await flush();
    expect(updates).toEqual([{ hotkeys: { preset: 'nest', overrides: { 'ticket.buy': ['Ctrl+B'] } } }]);
    expect(screen.queryByTestId('hotkey-conflicts')).toBeNull();
    expect(screen.getByTestId('hotkey-keys-ticket.buy').textContent).toMatch(/^Ctrl\+B/);
  });
});

describe('reading the fields', () => {
  it('reads rupees, whole numbers, percentages and seconds, or says why not', () => {
    expect(readAmount('Max value', '10,00,000')).toEqual({ ok: true, value: 1_000_000 });
    expect(readAmount('Max value', '1.005')).toEqual({
      ok: false,
      message: 'Max value: at most two decimals (paise)',
    });
    expect(readWhole('Count', '-1')).toEqual({ ok: false, message: 'Count: "-1" is not a whole number' });
    expect(readPercent('Band', '2.5%')).toEqual({ ok: true, value: 2.5 });
    expect(readSeconds('Window', '1.5')).toEqual({ ok: true, value: 1500 });
    expect(readAmount('Loss', '')).toEqual({ ok: false, message: 'Loss: enter an amount in rupees' });
  });
});

describe('key capture by keyboard', () => {
  it('Esc and Tab leave the capture without saving anything', async () => {
    const { model, updates } = await setup();
    render(HotkeyRemap, { props: { model } });
    const change = screen.getByTestId('hotkey-change-ticket.sell');
    await fireEvent.click(change);
    expect(change.textContent).toBe('Press a key…');
    await fireEvent.keyDown(change, { key: 'Escape', code: 'Escape' });
    expect(change.textContent).toBe('Change');
    await fireEvent.click(change);
    await fireEvent.keyDown(change, { key: 'Tab', code: 'Tab' });
    await flush();
    expect(change.textContent).toBe('Change');
    expect(screen.queryByTestId('hotkey-conflicts')).toBeNull();
    expect(updates).toEqual([]);
  });
});
