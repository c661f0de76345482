// Settings ▸ Account guard: the active profile's rules, shown from settings; what it cannot do said
// plainly; a field that cannot be read says why under it and nothing is sent; a valid save sends the
// profile's rules whole (`{ guard: { [profileId]: rules } }`); main's refusal (keyed by the profile)
// shows under the field it names; the cooling-off in minutes or until the next trading day.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, GuardRules, type Settings, type SettingsPatch } from '@contract';
import GuardForm from '../../../src-renderer/src/components/settings/GuardForm.svelte';
import { DEFAULT_GUARD_RULES, readGuardForm } from '../../../src-renderer/src/lib/guard-form';
import { GuardState } from '../../../src-renderer/src/state/guard.svelte';
import { SettingsState } from '../../../src-renderer/src/state/settings.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush } from '../../support/component/session';
import { guardView } from './fixtures';

afterEach(() => document.body.replaceChildren());

/** A fake main keeping settings; `refuse` answers settings.update with a refusal instead. */
async function setup(
  refuse?: { message: string; fields: { path: string; message: string }[] },
  guardOf: Settings['guard'] = {},
) {
  const bridge = new FakeBridge();
  let settings: Settings = { ...structuredClone(DEFAULT_SETTINGS), guard: guardOf };
  const updates: SettingsPatch[] = [];
  bridge
    .answer('settings.get', () => ({ ok: true, value: settings }))
    .answer('risk.daily', () => ({ ok: false, error: { kind: 'internal', message: 'not in this test' } }))
    .answer('guard.state', () => ({ ok: true, value: guardView() }))
    .answer('settings.update', (patch) => {
      if (refuse) return { ok: false, error: { kind: 'invalid_input', ...refuse } };
      updates.push(patch as SettingsPatch);
      settings = { ...settings, guard: { ...settings.guard, ...(patch as SettingsPatch).guard } };
      return { ok: true, value: settings };
    });
  const model = new SettingsState(bridge);
  await model.load();
  const guard = new GuardState(bridge);
  guard.start();
  render(GuardForm, { props: { model, guard } });
  await flush();
  return { bridge, model, updates };
}

const type = (id: string, value: string) => fireEvent.input(screen.getByTestId(id), { target: { value } });

describe('the account guard form', () => {
  it("says plainly that other clients' orders are not blocked, only counted and flattened", async () => {
    await setup();
    expect(screen.getByTestId('guard-cannot')).toHaveTextContent(
      'Orders placed from other clients on this account are not blocked by OrderDesk; the guard sees them in the books, counts them and flattens them with the rest.',
    );
    expect(screen.getByText('Paper (simulated)', { exact: false })).toBeInTheDocument();
  });

  it('keeps the renderer defaults equal to the contract’s', () => {
    expect(DEFAULT_GUARD_RULES).toEqual(GuardRules.parse({}));
  });

  it('shows the saved rules of the active profile, and today’s use beside them', async () => {
    await setup(undefined, {
      paper: GuardRules.parse({
        enabled: true,
        dailyLoss: 5000,
        maxOrders: 20,
        action: 'flatten',
        coolOffMinutes: 45,
      }),
      live: GuardRules.parse({ enabled: true, dailyLoss: 99 }),
    });
    expect(screen.getByTestId('guard-enabled')).toBeChecked();
    expect(screen.getByTestId('guard-dailyLoss')).toHaveValue('5000');
    expect(screen.getByTestId('guard-maxOrders')).toHaveValue('20');
    expect(screen.getByTestId('guard-action-flatten')).toBeChecked();
    expect(screen.getByTestId('guard-cool-minutes')).toBeChecked();
    expect(screen.getByTestId('guard-minutes')).toHaveValue('45');
    expect(screen.getByTestId('guard-today')).toHaveTextContent('Day loss ₹2,510.00 of ₹5,000.00 · 50 %');
  });

  it('shows why a field cannot be read under that field, and sends nothing', async () => {
    const { updates } = await setup();
    await type('guard-dailyLoss', '5 lakh');
    await type('guard-maxOrders', '2.5');
    await type('guard-maxDrawdown', '10.555');
    await fireEvent.click(screen.getByTestId('guard-cool-minutes'));
    await type('guard-minutes', '0');
    await fireEvent.click(screen.getByTestId('guard-save'));
    await flush();
    const loss = screen.getByTestId('guard-dailyLoss');
    expect(loss).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(loss.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Daily loss lock: "5 lakh" is not an amount (write it as 5000 or 5,000.50)',
    );
    expect(screen.getByTestId('guard-maxOrders-problem')).toHaveTextContent(
      'Max orders per day: "2.5" is not a whole number',
    );
    expect(screen.getByTestId('guard-maxDrawdown-problem')).toHaveTextContent(
      'Max drawdown: at most two decimals (paise)',
    );
    expect(screen.getByTestId('guard-coolOffMinutes-problem')).toHaveTextContent(
      'Cooling-off time: from 1 to 1440 minutes (or until the next trading day)',
    );
    expect(updates).toEqual([]);
  });

  it("saves the active profile's rules whole, as typed", async () => {
    const { updates, model } = await setup();
    await fireEvent.click(screen.getByTestId('guard-enabled'));
    await type('guard-dailyLoss', '₹ 5,000');
    await type('guard-dailyProfit', '12,500.50');
    await type('guard-maxOrders', '1');
    await fireEvent.click(screen.getByTestId('guard-action-flatten'));
    await fireEvent.click(screen.getByTestId('guard-cool-minutes'));
    await type('guard-minutes', '60');
    await fireEvent.change(screen.getByTestId('guard-warn50'), { target: { value: 'sound' } });
    await fireEvent.change(screen.getByTestId('guard-warn80'), { target: { value: 'off' } });
    await fireEvent.click(screen.getByTestId('guard-save'));
    await flush();
    expect(updates).toEqual([
      {
        guard: {
          paper: {
            enabled: true,
            dailyLoss: 5000,
            dailyProfit: 12500.5,
            maxDrawdown: 0,
            maxOrders: 1,
            maxOpenPositions: 0,
            maxLossPerPosition: 0,
            action: 'flatten',
            coolOffMinutes: 60,
            warn50: 'sound',
            warn80: 'off',
          },
        },
      },
    ]);
    // What was sent is a valid GuardRules as the core reads it.
    expect(GuardRules.safeParse(updates[0]?.guard?.['paper']).success).toBe(true);
    expect(screen.getByTestId('guard-saved')).toHaveTextContent(
      'Account guard saved for Paper (simulated): it watches from now',
    );
    expect(model.settings?.guard['paper']?.maxOrders).toBe(1);
  });

  it('saves "until the next trading day" as 0 minutes', async () => {
    const { updates } = await setup(undefined, {
      paper: GuardRules.parse({ enabled: true, maxOrders: 3, coolOffMinutes: 30 }),
    });
    await fireEvent.click(screen.getByTestId('guard-cool-day'));
    expect(screen.getByTestId('guard-minutes')).toBeDisabled();
    await fireEvent.click(screen.getByTestId('guard-save'));
    await flush();
    expect(updates[0]?.guard?.['paper']).toMatchObject({ maxOrders: 3, coolOffMinutes: 0 });
  });

  it("shows main's refusal under the field it names", async () => {
    await setup({
      message: 'invalid settings: guard.paper.maxOrders: Max orders per day must be at most 100000',
      fields: [{ path: 'guard.paper.maxOrders', message: 'Max orders per day must be at most 100000' }],
    });
    await type('guard-maxOrders', '100001');
    await fireEvent.click(screen.getByTestId('guard-save'));
    await flush();
    expect(screen.getByTestId('guard-maxOrders-problem')).toHaveTextContent(
      'Max orders per day must be at most 100000',
    );
    expect(screen.getByTestId('guard-maxOrders')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByTestId('guard-saved')).toBeNull();
  });
});

describe('reading the form', () => {
  it('reads 0 as off and refuses negative amounts in words', () => {
    const base = {
      enabled: true,
      limits: {
        dailyLoss: '0',
        dailyProfit: '0',
        maxDrawdown: '0',
        maxOrders: '0',
        maxOpenPositions: '-1',
        maxLossPerPosition: '0',
      },
      action: 'block' as const,
      coolOff: 'day' as const,
      minutes: '',
      warn50: 'in_app' as const,
      warn80: 'os' as const,
    };
    expect(readGuardForm(base)).toEqual({
      ok: false,
      errors: { 'guard.maxOpenPositions': 'Max open positions: "-1" is not a whole number' },
    });
    const ok = readGuardForm({ ...base, limits: { ...base.limits, maxOpenPositions: '4' } });
    expect(ok.ok && ok.rules.maxOpenPositions).toBe(4);
    expect(ok.ok && ok.rules.coolOffMinutes).toBe(0);
  });
});
