// The send-once guard the Basket, Split and Smart modes share: one send per unchanged request, a request
// held back as a duplicate may go once more deliberately, a refusal may be retried, a throw counts as sent.
import { describe, expect, it } from 'vitest';
import type { IpcResult } from '@contract';
import { SendOnce } from '../../../src-renderer/src/state/send-once.svelte';

function stepOf(answer: () => Promise<IpcResult<string>>) {
  const seen: string[] = [];
  return {
    seen,
    step: {
      call: answer,
      sent: (v: string) => ({ kind: 'sent' as const, v }),
      onStart: () => seen.push('start'),
      settle: (o: { kind: string }) => seen.push(`settle:${o.kind}`),
    },
  };
}

describe('SendOnce', () => {
  it('ignores a second press while sending and a resend of the same request', async () => {
    const once = new SendOnce();
    let release!: (r: IpcResult<string>) => void;
    const { step, seen } = stepOf(() => new Promise((r) => (release = r)));
    const first = once.send('a', false, step);
    expect(once.sending).toBe(true);
    expect(await once.send('a', false, step)).toBeUndefined();
    release({ ok: true, value: 'id-1' });
    expect(await first).toEqual({ kind: 'sent', v: 'id-1' });
    expect(once.sending).toBe(false);
    expect(once.isSent('a')).toBe(true);
    expect(await once.send('a', false, step)).toBeUndefined();
    expect(once.ignored).toBe(2);
    expect(seen).toEqual(['start', 'settle:sent']);
    expect(once.isSent(undefined)).toBe(false);
  });

  it('holds a duplicate for a deliberate resend; a refusal may be retried; a throw counts as sent', async () => {
    const once = new SendOnce();
    const dup = stepOf(async () => ({ ok: false, error: { kind: 'duplicate', message: 'sent 1 s ago' } }));
    expect(await once.send('a', true, dup.step)).toBeUndefined(); // nothing held yet: a stale confirm
    expect((await once.send('a', false, dup.step))?.kind).toBe('refused');
    expect(once.isSent('a')).toBe(false);
    expect(once.canConfirmDuplicate('a')).toBe(true);
    expect(once.canConfirmDuplicate('b')).toBe(false);
    const queued = stepOf(async () => ({ ok: false, error: { kind: 'queued', message: 'for approval' } }));
    expect(await once.send('a', true, queued.step)).toEqual({ kind: 'queued', message: 'for approval' });
    expect(once.canConfirmDuplicate('a')).toBe(false);
    expect(once.isSent('a')).toBe(true);

    const thrown = stepOf(() => Promise.reject(new Error('bridge gone')));
    expect(await once.send('b', false, thrown.step)).toEqual({ kind: 'unknown', message: 'bridge gone' });
    expect(once.isSent('b')).toBe(true);
    const risk = stepOf(async () => ({ ok: false, error: { kind: 'risk', message: 'over the limit' } }));
    expect((await once.send('c', false, risk.step))?.kind).toBe('refused');
    expect(once.canConfirmDuplicate('c')).toBe(false);
    expect((await once.send('c', false, risk.step))?.kind).toBe('refused'); // a refusal is not "sent"
    expect(once.ignored).toBe(1);
  });
});
