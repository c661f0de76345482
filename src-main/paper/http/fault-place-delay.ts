// A test-only fault, off unless `--fault-place-delay-ms` asks for it: the answer to a placeorder is
// held for `ms` after the gateway has placed the order. A client whose timeout is shorter sees no
// answer while the order rests in the book — the "unknown outcome" case end-to-end tests need.
import type { RoutePlugin } from './route-kit.js';

export const PLACE_PATH = '/api/v1/placeorder';

export function placeAnswerDelay(ms: number): RoutePlugin {
  return (app) => {
    // onSend runs after the route's handler: the order is placed, only its answer waits.
    app.addHook('onSend', async (req, _reply, payload) => {
      const path = (req.url.split('?')[0] ?? '').replace(/\/+$/, '');
      if (req.method === 'POST' && path === PLACE_PATH) await new Promise((r) => setTimeout(r, ms));
      return payload;
    });
  };
}
