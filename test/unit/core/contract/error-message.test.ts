import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../../../src-main/contract/index.js';

describe('errorMessage', () => {
  it('reads an Error, a subclass and an Error without a message', () => {
    expect(errorMessage(new Error('disk full'))).toBe('disk full');
    expect(errorMessage(new TypeError('bad port'))).toBe('bad port');
    expect(errorMessage(new RangeError())).toBe('RangeError');
  });

  it.each([
    [null, 'no error detail (null was thrown)'],
    [undefined, 'no error detail (undefined was thrown)'],
    ['keyring locked', 'keyring locked'],
    ['', 'unknown error'],
    [42, '42'],
    [false, 'false'],
    [10n, '10'],
    [Symbol('boom'), 'Symbol(boom)'],
  ])('describes a thrown %s', (thrown, expected) => {
    expect(errorMessage(thrown)).toBe(expected);
  });

  it('reads a plain object by its message, else as JSON', () => {
    expect(errorMessage({ message: 'IsLocked', code: 'E1' })).toBe('IsLocked');
    expect(errorMessage({ code: 'ECONNRESET' })).toBe('{"code":"ECONNRESET"}');
    expect(errorMessage({})).toBe('[object Object]');
    expect(errorMessage([])).toBe('[]');
  });

  it('never throws, even where String(err) would', () => {
    const bare = Object.create(null) as object;
    expect(() => String(bare)).toThrow(TypeError);
    expect(errorMessage(bare)).toBe('[object Object]');
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(errorMessage(circular)).toBe('unreadable object was thrown');
    const hostile = {
      get message(): string {
        throw new Error('getter');
      },
    };
    expect(errorMessage(hostile)).toBe('unreadable object was thrown');
  });

  it('keeps to one bounded line (error texts end up in banners and logs)', () => {
    expect(errorMessage(new Error('first line\n    at stack frame'))).toBe('first line');
    const long = errorMessage('x'.repeat(1000));
    expect(long).toHaveLength(301);
    expect(long.endsWith('…')).toBe(true);
  });
});
