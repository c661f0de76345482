// The preload's name lists (plain strings, no zod) must be exactly the contract's tables.
import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, EVENT_NAMES } from '../../../src-main/contract/index.js';
import { CHANNEL_NAME_LIST, EVENT_NAME_LIST } from '../../../src-main/shared/ipc-names.js';

describe('IPC name lists', () => {
  it('list every channel of CHANNELS once, and nothing else', () => {
    expect(new Set(CHANNEL_NAME_LIST).size).toBe(CHANNEL_NAME_LIST.length);
    expect([...CHANNEL_NAME_LIST].sort()).toEqual([...CHANNEL_NAMES].sort());
  });
  it('list every event of EVENTS once, and nothing else', () => {
    expect(new Set(EVENT_NAME_LIST).size).toBe(EVENT_NAME_LIST.length);
    expect([...EVENT_NAME_LIST].sort()).toEqual([...EVENT_NAMES].sort());
  });
});
