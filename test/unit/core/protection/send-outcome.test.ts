// A protective order's failed send: refused (told, not retried), not sent (planned again), or in
// doubt (never sent again until the book shows it).
import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../../../../src-main/core/protection/index.js';

describe('outcomeOf', () => {
  it('retries only what the gateway cannot have acted on', () => {
    expect(outcomeOf({ kind: 'bad_input' })).toBe('refused');
    expect(outcomeOf({ kind: 'queued' })).toBe('refused');
    expect(outcomeOf({ kind: 'network' })).toBe('not_sent');
    expect(outcomeOf({ kind: 'rate_limited' })).toBe('not_sent');
    expect(outcomeOf({ kind: 'no_key' })).toBe('not_sent');
    // A 500 or a timeout may hide an order that was placed: in doubt, never resent.
    expect(outcomeOf({ kind: 'server' })).toBe('unknown');
    expect(outcomeOf({ kind: 'timeout' })).toBe('unknown');
    expect(outcomeOf({ kind: 'unknown_outcome' })).toBe('unknown');
  });
});
