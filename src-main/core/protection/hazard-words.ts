// What the trader is told of a bracket's hazard: a sticky OS notification that cannot be missed.
import type { BracketHazard } from './bracket-keeper.js';

export function hazardWords(h: BracketHazard): { title: string; body: string } {
  switch (h.kind) {
    case 'unprotected':
      return {
        title: `UNPROTECTED: the ${h.leg} of order ${h.entry} was refused`,
        body: `${h.quantity} open without a ${h.leg}: ${h.reason}`,
      };
    case 'overshoot':
      return {
        title: `Both legs filled: order ${h.entry} is reversed by ${h.excess}`,
        body: 'The stop and the target both filled. Check the position; flatten it from the positions pane.',
      };
    case 'levels':
      return { title: `No protection for order ${h.entry}`, body: h.message };
  }
}
