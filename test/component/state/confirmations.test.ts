// The ask-before-send toggles follow a change saved elsewhere (another window, the shell, the bench)
// through the core's settings.changed event; an older event never puts older toggles back.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '@contract';
import { ConfirmationsState } from '../../../src-renderer/src/state/confirmations.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';

const settingsWith = (confirmations: Settings['confirmations']): Settings => ({
  ...structuredClone(DEFAULT_SETTINGS),
  confirmations,
});

let stop: (() => void) | undefined;
afterEach(() => stop?.());

describe('ConfirmationsState', () => {
  it('follows settings.changed from elsewhere, newest seq only, and stops when told', async () => {
    const bridge = new FakeBridge().answer('settings.get', () => ({
      ok: true,
      value: settingsWith({ place: true, modify: true, cancel: true }),
    }));
    const c = new ConfirmationsState(bridge);
    stop = c.start();
    await Promise.resolve();
    expect(c.asks('place')).toBe(true);

    bridge.emit('settings.changed', {
      seq: 10,
      settings: settingsWith({ place: false, modify: true, cancel: false }),
    });
    expect(c.asks('place')).toBe(false);
    expect(c.asks('cancel')).toBe(false);

    // A late, older event is not the settings any more.
    bridge.emit('settings.changed', {
      seq: 9,
      settings: settingsWith({ place: true, modify: true, cancel: true }),
    });
    expect(c.asks('place')).toBe(false);

    stop();
    stop = undefined;
    expect(bridge.listenerCount('settings.changed')).toBe(0);
  });
});
