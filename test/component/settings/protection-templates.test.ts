// Settings ▸ Protection: the ticket's templates added, edited, renamed and deleted, the default per
// segment, all saved whole through settings.update({ protection }); a rename carries the defaults that
// name it, a delete clears them (said); problems in words before saving, and main's refusal after.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings, type SettingsPatch } from '@contract';
import ProtectionTemplates from '../../../src-renderer/src/components/settings/ProtectionTemplates.svelte';
import { SettingsState } from '../../../src-renderer/src/state/settings.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush } from '../../support/component/session';

async function setup(refuse?: { message: string; fields: { path: string; message: string }[] }) {
  const bridge = new FakeBridge();
  let settings: Settings = structuredClone(DEFAULT_SETTINGS);
  settings.protection.defaults = { fno: 'Scalp 10/20' };
  const updates: SettingsPatch[] = [];
  bridge
    .answer('settings.get', () => ({ ok: true, value: settings }))
    .answer('risk.daily', () => ({ ok: false, error: { kind: 'internal', message: 'not here' } }))
    .answer('settings.update', (patch) => {
      if (refuse) return { ok: false, error: { kind: 'invalid_input', ...refuse } };
      updates.push(patch as SettingsPatch);
      settings = {
        ...settings,
        ...(patch?.protection ? { protection: patch.protection as Settings['protection'] } : {}),
      };
      return { ok: true, value: settings };
    });
  const model = new SettingsState(bridge);
  await model.load();
  render(ProtectionTemplates, { props: { model } });
  await flush();
  return { bridge, model, updates };
}

const rows = () => screen.getAllByTestId('protection-template');
const input = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const type = (el: HTMLInputElement, value: string) => fireEvent.input(el, { target: { value } });
const save = async () => {
  await fireEvent.click(screen.getByRole('button', { name: 'Save protection' }));
  await flush();
};

describe('protection templates in Settings', () => {
  it('lists the saved templates and the segment defaults', async () => {
    await setup();
    expect(rows()).toHaveLength(2);
    expect(input('Template 1 name').value).toBe('Scalp 10/20');
    expect(input('Scalp 10/20: stop').value).toBe('10');
    expect(input('Swing 1 %/3 %: target').value).toBe('3');
    const fno = screen.getByTestId('protection-default-fno') as HTMLSelectElement;
    expect(fno.selectedOptions[0]?.textContent).toBe('Scalp 10/20');
    expect((screen.getByTestId('protection-default-equity') as HTMLSelectElement).value).toBe('');
  });

  it('adds, edits and renames; a rename carries the default that names it; saved whole', async () => {
    const { updates } = await setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Add template' }));
    await flush();
    expect(rows()).toHaveLength(3);
    await type(input('Template 3 name'), 'Tight 5');
    await type(input('Tight 5: stop'), '5');
    await type(input('Tight 5: trail step in points'), '1');
    await type(input('Template 1 name'), 'Scalp 12/24');
    await type(input('Scalp 12/24: stop'), '12');
    await type(input('Scalp 12/24: target'), '24');
    const equity = screen.getByTestId('protection-default-equity') as HTMLSelectElement;
    const tight = [...equity.options].find((o) => o.textContent === 'Tight 5');
    equity.value = tight?.value ?? '';
    await fireEvent.change(equity);
    await save();
    expect(updates).toEqual([
      {
        protection: {
          templates: [
            {
              name: 'Scalp 12/24',
              spec: { stop: { by: 'points', value: '12' }, target: { by: 'points', value: '24' } },
            },
            {
              name: 'Swing 1 %/3 %',
              spec: { stop: { by: 'percent', value: '1' }, target: { by: 'percent', value: '3' } },
            },
            { name: 'Tight 5', spec: { stop: { by: 'points', value: '5' }, trailStep: '1' } },
          ],
          defaults: { equity: 'Tight 5', fno: 'Scalp 12/24' },
        },
      },
    ]);
    expect(screen.getByTestId('protection-saved').textContent).toBe('Saved · 3 templates');
  });

  it('a delete clears the default that named it, and says so', async () => {
    const { updates } = await setup();
    await fireEvent.click(within(rows()[0]!).getByRole('button', { name: /Delete/ }));
    await flush();
    expect(screen.getByRole('status').textContent).toBe('Scalp 10/20 deleted; F&O now has no default');
    await save();
    expect(updates[0]?.protection?.defaults).toEqual({});
    expect(updates[0]?.protection?.templates.map((t) => t.name)).toEqual(['Swing 1 %/3 %']);
  });

  it('problems in words beside the row, and nothing saved', async () => {
    const { updates } = await setup();
    await type(input('Swing 1 %/3 %: stop'), 'one');
    await type(input('Template 1 name'), 'Swing 1 %/3 %');
    await save();
    expect(updates).toHaveLength(0);
    const problems = screen.getAllByTestId('protection-row-problem').map((p) => p.textContent);
    expect(problems).toEqual([
      'Two templates are called Swing 1 %/3 %: rename one · The stop must be a number, at most 4 decimals (one is not)',
    ]);
    expect(screen.getByRole('alert').textContent).toBe('Not saved: fix the rows marked below first');
  });

  it("main's refusal is shown in words, by the row it names", async () => {
    await setup({
      message: 'protection.templates.1.spec: a protection needs a stop, a target or both',
      fields: [
        { path: 'protection.templates.1.spec', message: 'a protection needs a stop, a target or both' },
      ],
    });
    await save();
    expect(screen.getAllByTestId('protection-row-problem').map((p) => p.textContent)).toEqual([
      'a protection needs a stop, a target or both',
    ]);
    // Under the second row.
    expect(rows()[1]?.nextElementSibling?.textContent).toBe('a protection needs a stop, a target or both');
  });
});
