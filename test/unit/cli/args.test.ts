// The CLI's argument parsing: flags, field=value with JSON values, and no key from an argument.
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src-main/cli/args.js';

describe('parseCliArgs', () => {
  it('reads flags, the operation and fields; JSON-looking values are parsed', () => {
    const r = parseCliArgs([
      '--url=http://127.0.0.1:5000',
      '--profile',
      'paper',
      'basketorder',
      'strategy=cli',
      'orders=[{"symbol":"SBIN","exchange":"NSE","action":"BUY","quantity":1}]',
      'note=a=b',
      'quantity=10',
      'flag=true',
    ]);
    expect(r).toEqual({
      ok: true,
      args: {
        url: 'http://127.0.0.1:5000',
        profile: 'paper',
        operation: 'basketorder',
        fields: {
          strategy: 'cli',
          orders: [{ symbol: 'SBIN', exchange: 'NSE', action: 'BUY', quantity: 1 }],
          note: 'a=b',
          quantity: '10',
          flag: true,
        },
      },
    });
  });

  it.each([
    [['funds', 'apikey=abc123'], /never taken from an argument/],
    [['funds', 'API_KEY=abc123'], /never taken from an argument/],
    [['--apikey', 'abc123', 'funds'], /never taken from an argument/],
    [['launch'], /unknown operation "launch"/],
    // Order operations the core has no channel for are never sent around it.
    [['optionsorder'], /optionsorder is not offered/],
    [['closepositionHosted'], /closepositionHosted is not offered/],
    [['funds', 'novalue'], /expected field=value/],
    [['--port', '1', 'funds'], /unknown option --port/],
    [['--url'], /--url needs a value/],
    [[], /usage:/],
  ])('refuses %j', (argv, message) => {
    const r = parseCliArgs(argv);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message).toMatch(message);
      expect(r.message).not.toContain('abc123');
    }
  });

  it('keeps broken JSON as text for the schema to judge', () => {
    const r = parseCliArgs(['basketorder', 'orders=[{broken']);
    expect(r.ok && r.args.fields.orders).toBe('[{broken');
  });
});
