// The logger wrapper removes a key from every line in any letter case, and any run of 12 or more of
// its characters (a gateway's echo of a 40-character prefix), from the message and every field.
import { expect, it } from 'vitest';
import { createMemoryLogger, createRedactingLogger } from '../../../../src-main/core/secrets/index.js';

it('logs no key: upper-cased, a 40-character prefix, in the message or in a field', () => {
  const key = `c0ffee${'0123456789abcdef'.repeat(3)}badc0de`;
  const inner = createMemoryLogger();
  const log = createRedactingLogger(inner, () => [key]);
  log.warn(`gateway said: invalid apikey ${key.toUpperCase()}`, {
    answer: { message: `accepted for ${key.slice(0, 40)}` },
    list: [key.slice(8, 30).toUpperCase()],
  });
  const text = JSON.stringify(inner.entries).toLowerCase();
  for (let i = 0; i + 12 <= key.length; i++) expect(text).not.toContain(key.slice(i, i + 12).toLowerCase());
  expect(inner.entries[0]?.message).toBe('gateway said: invalid apikey [redacted]');
});
