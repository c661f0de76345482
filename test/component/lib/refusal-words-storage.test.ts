// A send refused because OrderDesk could not journal it (`storage`) is said as not sent, by OrderDesk,
// never as "Refused by the gateway": the gateway never saw it.
import { expect, it } from 'vitest';
import { refusalLead } from '../../../src-renderer/src/lib/refusal-words';

it('storage: not sent, OrderDesk could not record it', () => {
  expect(refusalLead('storage')).toBe('Not sent, OrderDesk could not record it');
});
