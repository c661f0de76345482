import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from '../../../../src-main/core/journal/index.js';

describe('csv', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ['', ''],
    ['=1+1', "'=1+1"],
    ['+91', "'+91"],
    ['-x,y', `"'-x,y"`],
    ['@SUM(A1)', "'@SUM(A1)"],
  ])('%j → %j', (input, output) => {
    expect(csvField(input)).toBe(output);
  });

  it('numbers stay numbers (negative ones too) and empties are empty', () => {
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
  });

  it('joins rows with CRLF and ends with one', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          [1, 'x'],
          [2, 'y,z'],
        ],
      ),
    ).toBe('a,b\r\n1,x\r\n2,"y,z"\r\n');
  });
});
