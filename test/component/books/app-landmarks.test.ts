// axe's landmark and heading rules for the desk: one main landmark, one level-one heading, and at
// narrow widths the funds line inside a labelled landmark (not loose content).
import { render, screen } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import App from '../../../src-renderer/src/App.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, snapshot } from '../../support/component/books-fixtures';
import { installLayout } from '../../support/component/jsdom-layout';

beforeAll(() => installLayout());
afterEach(() => {
  Object.assign(window, { innerWidth: 1024 });
  document.body.replaceChildren();
});

async function desk(width: number) {
  Object.assign(window, { innerWidth: width });
  const b = new FakeBridge().answer('session.snapshot', () => ({ ok: true, value: snapshot() }));
  Object.assign(window, { bridge: b });
  render(App);
  for (let i = 0; i < 5; i++) await flush();
}

describe('the desk (App): landmarks', () => {
  it.each([1280, 420])('at %i px: one main landmark and one level-one heading', async (width) => {
    await desk(width);
    expect(screen.getAllByRole('main')).toHaveLength(1);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('at 420 px the funds line sits in a labelled region inside main', async () => {
    await desk(420);
    const strip = screen.getByRole('region', { name: 'Funds' });
    expect(screen.getByRole('main')).toContainElement(strip);
  });
});
