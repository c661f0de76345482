// A page's market subscriptions as its host tracks them: what it still holds when it goes away is
// unwatched once, and a watch answered after that is unwatched at once.
import { describe, expect, it } from 'vitest';
import { createPageWatches } from '../../../src-main/core/market/index.js';

const ok = (id: string) => ({ ok: true as const, value: { id } });

describe('page watches', () => {
  it('releases what the page still holds, once, and nothing it unwatched or was refused', () => {
    const w = createPageWatches();
    w.noted('market.watch', ok('a'));
    w.noted('market.watch', ok('b'));
    w.noted('market.watch', { ok: false, error: { kind: 'conflict', message: 'full' } });
    w.noted('market.unwatch', ok('a'));
    w.noted('books.funds', ok('not-a-subscription'));
    // Other channels' answers are not read: one without a value must not throw.
    w.noted('settings.update', { ok: true, value: null });
    const released: string[] = [];
    w.release((id) => released.push(id));
    expect(released).toEqual(['b']);
    w.release((id) => released.push(id));
    expect(released).toEqual(['b']);
  });

  it('a watch answered after the page went away is released at once', () => {
    const w = createPageWatches();
    const released: string[] = [];
    w.release((id) => released.push(id));
    w.noted('market.watch', ok('late'));
    expect(released).toEqual(['late']);
  });
});
