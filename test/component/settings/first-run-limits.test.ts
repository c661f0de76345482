// First start asks for the trader's own order limits in one short step, filled with the defaults:
// Save writes them (and that the step was answered) through settings.update, Keep the defaults writes
// only that it was answered, and a desk whose settings say so does not ask again.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SettingsPatch, type Settings } from '@contract';
import FirstRunLimits from '../../../src-renderer/src/components/FirstRunLimits.svelte';
import { BRIDGE } from '../../../src-renderer/src/state/context';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush } from '../../support/component/session';

afterEach(() => document.body.replaceChildren());

/** A fake main holding the settings as the core does: a patch is checked, then merged per section. */
function fakeMain(start: Settings = structuredClone(DEFAULT_SETTINGS)) {
  let settings = start;
  const b = new FakeBridge();
  b.answer('settings.get', () => ({ ok: true, value: structuredClone(settings) }))
    .answer('risk.daily', () => ({ ok: false, error: { kind: 'internal', message: 'not here' } }))
    .answer('settings.update', (input) => {
      const patch = SettingsPatch.parse(input);
      settings = { ...settings, risk: { ...settings.risk, ...patch.risk } };
      return { ok: true, value: structuredClone(settings) };
    });
  return { bridge: b, saved: () => settings };
}

async function mount(main: ReturnType<typeof fakeMain>) {
  render(FirstRunLimits, { context: new Map([[BRIDGE, main.bridge]]) });
  await flush();
  await flush();
}

const step = () => screen.queryByRole('region', { name: 'Your order limits' });
const field = (name: string) => within(step()!).getByLabelText(name) as HTMLInputElement;

describe('first start: the trader’s own limits', () => {
  it('asks on a first start, filled with the default limits', async () => {
    await mount(fakeMain());
    expect(step()).not.toBeNull();
    expect(field('Value per order').value).toBe('50,00,000');
    expect(field('Qty per order').value).toBe('10,000');
    expect(field('Daily loss').value).toBe('0');
    // The amount as the limit will read it.
    expect(within(step()!).getByText('₹50,00,000.00')).toBeInTheDocument();
  });

  it('Save writes the typed limits and that the step was answered; the step goes', async () => {
    const main = fakeMain();
    await mount(main);
    await fireEvent.input(field('Value per order'), { target: { value: '25,00,000' } });
    await fireEvent.input(field('Qty per order'), { target: { value: '1800' } });
    await fireEvent.input(field('Daily loss'), { target: { value: '₹ 20,000' } });
    await fireEvent.click(within(step()!).getByRole('button', { name: 'Save limits' }));
    await flush();
    expect(main.bridge.callsTo('settings.update').map((c) => c.input)).toEqual([
      {
        risk: {
          maxValuePerOrder: 25_00_000,
          maxQuantityPerOrder: 1800,
          dailyLossLimit: 20_000,
          limitsReviewed: true,
        },
      },
    ]);
    expect(main.saved().risk).toMatchObject({ maxValuePerOrder: 25_00_000, limitsReviewed: true });
    expect(step()).toBeNull();
  });

  it('says what it cannot read beside the field and saves nothing', async () => {
    const main = fakeMain();
    await mount(main);
    await fireEvent.input(field('Value per order'), { target: { value: 'lots' } });
    await fireEvent.submit(field('Value per order').form!);
    await flush();
    expect(main.bridge.callsTo('settings.update')).toEqual([]);
    expect(field('Value per order')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Value per order')).toHaveAccessibleDescription(/"lots" is not an amount/);
  });

  it('Keep the defaults changes no limit, and a desk that answered is not asked again', async () => {
    const main = fakeMain();
    await mount(main);
    await fireEvent.click(within(step()!).getByRole('button', { name: 'Keep the defaults' }));
    await flush();
    expect(main.bridge.callsTo('settings.update').map((c) => c.input)).toEqual([
      { risk: { limitsReviewed: true } },
    ]);
    expect(main.saved().risk).toEqual({ ...DEFAULT_SETTINGS.risk, limitsReviewed: true });
    expect(step()).toBeNull();

    // The next start reads the saved settings: no step.
    document.body.replaceChildren();
    await mount(fakeMain(main.saved() as Settings));
    expect(step()).toBeNull();
  });
});
