// The page's call frames: envelope checks, typed error replies, never an exception.
import { describe, expect, it } from 'vitest';
import { BRIDGE_FRAME_MAX_BYTES, BridgeReplyFrame } from '../../../src-main/contract/index.js';
import { parseCallFrame } from '../../../src-main/web/call-frames.js';

const text = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));

function refused(data: Buffer, isBinary = false) {
  const r = parseCallFrame(data, isBinary);
  if (r.ok) throw new Error('expected a refusal');
  // Every refusal is a reply frame the page's bridge can read.
  expect(BridgeReplyFrame.parse(r.reply)).toEqual(r.reply);
  expect(r.reply.result).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
  return { id: r.reply.id, message: r.reply.result.ok ? '' : r.reply.result.error.message };
}

describe('parseCallFrame', () => {
  it('reads a call with or without input', () => {
    expect(parseCallFrame(text({ id: 1, channel: 'books.funds' }), false)).toEqual({
      ok: true,
      frame: { id: 1, channel: 'books.funds' },
    });
    const withInput = parseCallFrame(
      text({ id: 7, channel: 'alerts.pause', input: { paused: true } }),
      false,
    );
    expect(withInput).toEqual({
      ok: true,
      frame: { id: 7, channel: 'alerts.pause', input: { paused: true } },
    });
  });

  it('refuses binary frames, non-JSON and non-objects without an id', () => {
    expect(refused(text({ id: 1, channel: 'a' }), true)).toMatchObject({
      id: null,
      message: expect.stringContaining('binary'),
    });
    expect(refused(text('{nope'))).toMatchObject({ id: null, message: 'frame is not valid JSON' });
    expect(refused(text('null')).id).toBeNull();
    expect(refused(text('[1,2]')).id).toBeNull();
    expect(refused(text('"books.funds"')).id).toBeNull();
  });

  it('answers a bad envelope with the call id when the id itself is usable', () => {
    expect(refused(text({ id: 3 }))).toMatchObject({ id: 3, message: expect.stringContaining('channel') });
    expect(refused(text({ id: 4, channel: 5 }))).toMatchObject({ id: 4 });
    expect(refused(text({ id: 5, channel: 'x'.repeat(65) }))).toMatchObject({ id: 5 });
    // Strict: nothing rides along the envelope (an apikey field among others).
    expect(refused(text({ id: 6, channel: 'books.funds', apikey: 'k' }))).toMatchObject({
      id: 6,
      message: expect.stringContaining('apikey'),
    });
  });

  it('refuses unusable ids with id null', () => {
    for (const id of ['1', 0, -1, 1.5, Number.MAX_SAFE_INTEGER + 2, null])
      expect(refused(text({ id, channel: 'books.funds' })).id, String(id)).toBeNull();
  });

  it('refuses a frame over the size limit before parsing it', () => {
    const big = Buffer.alloc(BRIDGE_FRAME_MAX_BYTES + 1, 0x7b); // "{{{{…": not JSON either
    expect(refused(big)).toMatchObject({ id: null, message: expect.stringContaining('over the') });
    const atLimit = JSON.stringify({ id: 1, channel: 'settings.update', input: { pad: '' } });
    const padded = atLimit.replace(
      '"pad":""',
      `"pad":"${'x'.repeat(BRIDGE_FRAME_MAX_BYTES - atLimit.length)}"`,
    );
    expect(Buffer.byteLength(padded)).toBe(BRIDGE_FRAME_MAX_BYTES);
    expect(parseCallFrame(Buffer.from(padded), false).ok).toBe(true);
  });
});
