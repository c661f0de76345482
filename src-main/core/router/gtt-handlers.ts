// GTT channels (gtt.place, gtt.modify, gtt.cancel, gtt.book). A GTT is checked as the orders it
// would place: each leg against the quantity and value limits and the instrument's lot, tick and
// freeze (no price band: a GTT's prices are away from the market by design). The gateway schema's
// rules between fields are applied before anything is journalled. Every mutation is journalled,
// intent before the call and outcome after; an unknown outcome is "unknown — reconciling", settled
// from the GTT order book by the profile's GTT settler, and never sent again (architecture rule 4).
import type { z } from 'zod';
import {
  ModifyGttOrderRequest,
  PlaceGttOrderRequest,
  type EventPayload,
  type IpcErrorKind,
  type IpcResult,
} from '../../contract/index.js';
import type { Clock, GatewayResult } from '../../gateway/index.js';
import { gttWantOf, type GttCheck } from '../gtt/gtt-reconcile.js';
import type { GttSettler } from '../gtt/gtt-settler.js';
import { journaledEntry, journalRefusal, type Journal } from '../journal/index.js';
import type { Logger } from '../ports.js';
import type { Emit } from './event-bus.js';
import { describeZodError, failResult, fromGateway, okResult } from './results.js';
import type { RiskGate, RiskLeg } from './risk-gate.js';
import type { Handlers } from './router.js';
import type { Session } from './session.js';
import { unresolvedGttTwin } from './unresolved-hold.js';

export interface GttDeps {
  session(): Session;
  journal: Journal;
  risk: RiskGate;
  clock: Clock;
  emit: Emit;
  logger: Logger;
  /** The session's GTT settler (one per profile session). */
  settler(s: Session): GttSettler;
}

export type GttChannels = 'gtt.place' | 'gtt.modify' | 'gtt.cancel' | 'gtt.book';

/** Stands in for the key while the request is checked against the gateway's schema. */
const PLACEHOLDER_KEY = 'placeholder-key';

/** The orders a GTT would place, as the risk checks see them (one leg, or an OCO's two). */
export function gttRiskLegs(w: z.output<typeof PlaceGttOrderRequest>): RiskLeg[] {
  const leg = (limit: number, trigger: number): RiskLeg => ({
    symbol: w.symbol,
    exchange: w.exchange,
    action: w.action,
    quantity: w.quantity,
    product: w.product,
    // A MARKET leg is valued at its trigger, the price it fires at.
    ...(w.pricetype === 'MARKET'
      ? { pricetype: 'SL-M', price: 0, trigger_price: trigger }
      : { pricetype: 'LIMIT', price: limit, trigger_price: 0 }),
  });
  if (w.trigger_type === 'OCO') return [leg(w.stoploss, w.triggerprice_sl), leg(w.target, w.triggerprice_tg)];
  return [leg(w.price, w.triggerprice_sl > 0 ? w.triggerprice_sl : w.triggerprice_tg)];
}

export function gttHandlers(d: GttDeps): Pick<Handlers, GttChannels> {
  /** Journals a refusal made before the call, so the journal answers "what did I try?" too. */
  function refused<T>(s: Session, operation: string, request: unknown, kind: IpcErrorKind, message: string) {
    return journalRefusal<T>(d.journal, { profileId: s.profile.id, operation, request }, kind, message);
  }

  /** Intent, call, outcome; an unknown outcome goes to the settler with what to look for. */
  async function send<T>(
    s: Session,
    operation: EventPayload<'orders.unknown'>['operation'],
    request: object,
    call: () => Promise<GatewayResult<T>>,
    check: GttCheck,
  ): Promise<IpcResult<T>> {
    const intent = { profileId: s.profile.id, operation, request };
    const { journalId, result: r } = await journaledEntry(d.journal, intent, call, d.logger);
    if (r.ok || r.error.kind !== 'unknown_outcome') return fromGateway(r);
    d.settler(s).track(journalId, check);
    d.emit('orders.unknown', {
      profileId: s.profile.id,
      time: d.clock.now(),
      journalId,
      operation,
      ...(check.operation === 'placegttorder' ? {} : { triggerId: check.triggerId }),
      message: r.error.message,
    });
    return failResult('unknown_outcome', r.error.message, { journalId });
  }

  /** The request checked as the gateway will (one trigger for SINGLE, four prices for OCO, CNC/NRML). */
  function checked<S extends typeof PlaceGttOrderRequest | typeof ModifyGttOrderRequest>(
    schema: S,
    request: object,
  ): { ok: true; value: z.output<S> } | { ok: false; message: string } {
    const r = schema.safeParse({ ...request, apikey: PLACEHOLDER_KEY });
    if (!r.success) return { ok: false, message: describeZodError(r.error) };
    return { ok: true, value: r.data as z.output<S> };
  }

  /** Risk checks per leg; undefined when they pass. */
  async function refusal(s: Session, request: z.output<typeof PlaceGttOrderRequest>) {
    const gate = await d.risk.check(s.client.withPriority('order'), gttRiskLegs(request), {
      scope: s.profile.id,
      skipDuplicate: true,
      skipPriceBand: true,
    });
    return gate.ok ? undefined : gate;
  }

  return {
    async 'gtt.place'(input) {
      const s = d.session();
      const { confirmDuplicate, ...fields } = input;
      const request = { ...fields, strategy: fields.strategy ?? s.profile.strategy };
      const valid = checked(PlaceGttOrderRequest, request);
      if (!valid.ok) return failResult('invalid_input', valid.message);
      const want = gttWantOf(valid.value);
      // An identical GTT placement still in doubt holds this one back, unless the trader confirms.
      const held = confirmDuplicate
        ? undefined
        : unresolvedGttTwin(d.journal, s.profile.id, want, d.clock.now());
      if (held) return refused(s, 'placegttorder', request, 'unresolved_duplicate', held);
      const no = await refusal(s, valid.value);
      if (no) return refused(s, 'placegttorder', request, no.kind, no.message);
      // The GTTs there before the call: after an unknown answer, only a new one can be this one.
      const before = await s.client.withPriority('order').gttorderbook({ status: 'all' });
      if (!before.ok && before.error.kind === 'not_offered') return fromGateway(before);
      const known = before.ok ? before.value.data.map((g) => g.trigger_id) : [];
      return send(s, 'placegttorder', request, () => s.client.placegttorder(request), {
        operation: 'placegttorder',
        want,
        known,
      });
    },

    async 'gtt.modify'(input) {
      const s = d.session();
      const request = { ...input, strategy: input.strategy ?? s.profile.strategy };
      const valid = checked(ModifyGttOrderRequest, request);
      if (!valid.ok) return failResult('invalid_input', valid.message);
      const want = gttWantOf(valid.value);
      const no = await refusal(s, valid.value);
      if (no) return refused(s, 'modifygttorder', request, no.kind, no.message);
      return send(s, 'modifygttorder', request, () => s.client.modifygttorder(request), {
        operation: 'modifygttorder',
        triggerId: input.trigger_id,
        want,
      });
    },

    async 'gtt.cancel'(input) {
      const s = d.session();
      const request = { trigger_id: input.trigger_id, strategy: input.strategy ?? s.profile.strategy };
      return send(s, 'cancelgttorder', request, () => s.client.cancelgttorder(request), {
        operation: 'cancelgttorder',
        triggerId: input.trigger_id,
      });
    },

    async 'gtt.book'(input) {
      const s = d.session();
      const r = await s.client.gttorderbook({ status: input?.status ?? 'active' });
      if (!r.ok) return fromGateway(r);
      const gtts = [...r.value.data].sort((a, b) => b.created_at.localeCompare(a.created_at));
      return okResult({ gtts });
    },
  };
}
