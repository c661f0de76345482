// A row's modify form: a second Enter while the first modify travels sends nothing, and the answer
// puts focus back on the table only if the trader has not moved on.
import { describe, expect, it } from 'vitest';
import { rowEditKeys } from '../../../src-renderer/src/lib/row-edit';

function enterOn(target: Element): KeyboardEvent {
  const e = new KeyboardEvent('keydown', { key: 'Enter', cancelable: true });
  Object.defineProperty(e, 'target', { value: target });
  return e;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('rowEditKeys', () => {
  it('sends one modify for two quick Enters, and refocuses the table once it went', async () => {
    const input = document.createElement('input');
    let submits = 0;
    let release: (sent: boolean) => void = () => undefined;
    let refocused = 0;
    const keys = rowEditKeys(
      {
        submit: () => {
          submits++;
          return new Promise<boolean>((r) => (release = r));
        },
        cancel: () => undefined,
        refocus: () => refocused++,
      },
      () => input,
    );
    keys(enterOn(input));
    keys(enterOn(input));
    expect(submits).toBe(1);
    release(true);
    await tick();
    expect(refocused).toBe(1);
    keys(enterOn(input));
    expect(submits).toBe(2);
  });

  it('leaves focus where the trader moved while the answer travelled', async () => {
    const input = document.createElement('input');
    const search = document.createElement('input');
    let release: (sent: boolean) => void = () => undefined;
    let refocused = 0;
    let focused: Element = input;
    const keys = rowEditKeys(
      {
        submit: () => new Promise<boolean>((r) => (release = r)),
        cancel: () => undefined,
        refocus: () => refocused++,
      },
      () => focused,
    );
    keys(enterOn(input));
    focused = search;
    release(true);
    await tick();
    expect(refocused).toBe(0);
  });
});
