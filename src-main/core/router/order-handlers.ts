// Over 300 lines: nine order channels over one shared path of risk checks, journal and unknowns.
// Order channels: risk checks before anything leaves, the journal written before and after the
// gateway call, and unknown outcomes handed to the watcher to settle from the order book (never
// resent: architecture rule 4).
import { errorMessage, type DailyLimitName, type IpcResult, type RiskLimits } from '../../contract/index.js';
import { basketGroupTitle, splitGroupTitle } from '../../shared/alert-group-title.js';
import { sentChildren, type SendGroup } from '../alerts/notify-groups.js';
import type { Clock, GatewayResult } from '../../gateway/index.js';
import { journaledEntry, journalRefusal, type Journal } from '../journal/index.js';
import type { Logger } from '../ports.js';
import { previewSmart, splitPreview } from '../previews/index.js';
import { dayPnlText, type DailyBooks, type DailyLeg, type DailyLimits } from '../risk/index.js';
import { toCheck, type PlacedOrder, type UnknownIntent } from '../watcher/index.js';
import type { Emit } from './event-bus.js';
import { failResult, fromGateway, okResult } from './results.js';
import { riskLeg, type GateRefusal, type RiskGate, type RiskLeg } from './risk-gate.js';
import { closeAllHandlers } from './close-all-handlers.js';
import type { Handlers } from './router.js';
import type { Session } from './session.js';
import { unresolvedTwin } from './unresolved-hold.js';

export interface OrderDeps {
  session(): Session;
  journal: Journal;
  risk: RiskGate;
  /** The soft daily limits (order count, loss) and the settings they read. */
  daily: DailyLimits;
  limits: () => RiskLimits;
  clock: Clock;
  emit: Emit;
  logger: Logger;
  /** A split or basket about to be sent, so its orders' OS notifications become one (core/alerts). */
  alertGroup?: (title: string) => SendGroup;
}

export type OrderChannels =
  | 'orders.place'
  | 'orders.modify'
  | 'orders.cancel'
  | 'orders.cancelAll'
  | 'orders.smart'
  | 'orders.split'
  | 'orders.basket'
  | 'orders.closePosition'
  | 'orders.closeAll'
  | 'orders.previewSmart'
  | 'orders.previewSplit'
  | 'risk.daily';

/** What the order book will show of one new order (a split's child, a basket's leg). */
function placed(o: PlacedOrder): PlacedOrder {
  const { symbol, exchange, action, quantity, pricetype, product, price } = o;
  return { symbol, exchange, action, quantity, pricetype, product, price };
}

/** Reads an order waits on (its risk check's quote, a smart order's position) go ahead of polling. */
function orderReads(s: Session) {
  return s.client.withPriority('order');
}

/** Open positions and the day's P&L (funds' realised M2M + the positions' MTM) as last read. */
function dailyBooks(s: Session): DailyBooks {
  const v = s.watcher.views();
  return {
    positions: v.positions?.positions ?? null,
    dayPnl: dayPnlText(v.funds?.realisedMtm, v.positions?.totalMtm),
  };
}

export function orderHandlers(d: OrderDeps): Pick<Handlers, OrderChannels> {
  /** Journals a refusal made before the call, so the journal answers "what did I try?" too. */
  function refused<T>(
    s: Session,
    operation: string,
    request: unknown,
    kind: GateRefusal['kind'] | 'unresolved_duplicate',
    message: string,
    limit?: DailyLimitName,
  ): IpcResult<T> {
    const intent = { profileId: s.profile.id, operation, request };
    return journalRefusal(d.journal, intent, kind, message, limit ? { limit } : {});
  }

  /**
   * Why a new order is held back: an identical earlier one of the profile is still in doubt (pending,
   * unknown, or just found placed after all), whatever the duplicate window says. Only a deliberate
   * `confirmDuplicate` sends it.
   */
  function heldBack(s: Session, legs: readonly RiskLeg[], confirmDuplicate: boolean | undefined) {
    return confirmDuplicate ? undefined : unresolvedTwin(d.journal, s.profile.id, legs, d.clock.now());
  }

  /**
   * New orders pass the soft daily limits first: the slot is taken now, and given back when the
   * other checks refuse the order or the gateway answers that it did not take it.
   */
  async function admitDaily(s: Session, legs: readonly DailyLeg[]) {
    const limits = d.limits();
    let books = dailyBooks(s);
    // Under a loss limit the day's P&L must be known: read the books now rather than refuse blind
    // (only until the watcher's first full read, just after a start or a profile switch).
    if (limits.dailyLossLimit > 0 && books.dayPnl === null) {
      await s.watcher.pollNow();
      books = dailyBooks(s);
    }
    return d.daily.admit(s.profile.id, legs, limits, books);
  }
  /** A split's or basket's send, told to the alerts with what its answer says of each child. */
  async function grouped<T extends { results: Parameters<typeof sentChildren>[1] }>(
    title: string,
    asked: readonly PlacedOrder[],
    send: () => Promise<IpcResult<T>>,
  ): Promise<IpcResult<T>> {
    const group = d.alertGroup?.(title);
    let r: IpcResult<T> | undefined;
    try {
      r = await send();
      return r;
    } finally {
      group?.placed(r?.ok ? sentChildren(asked, r.value.results) : []);
    }
  }
  function settled<T>(slot: { release(): void }, r: IpcResult<T>): IpcResult<T> {
    // An unknown outcome may have reached the exchange: it keeps its slot.
    if (!r.ok && r.error.kind !== 'unknown_outcome') slot.release();
    return r;
  }

  /**
   * Intent, call, outcome (core/journal's `journaled`: no journal, no order); an unknown outcome goes
   * to the watcher with what to look for.
   */
  async function sendJournaled<T>(
    s: Session,
    operation: string,
    request: object,
    call: () => Promise<GatewayResult<T>>,
    intent?: UnknownIntent,
  ): Promise<IpcResult<T>> {
    // Before sending: a poll during the call may already see the new order.
    const known = s.watcher.knownOrderIds();
    const intentInput = { profileId: s.profile.id, operation, request };
    const { journalId, result: r } = await journaledEntry(d.journal, intentInput, call, d.logger);
    if (r.ok) return okResult(r.value);
    if (r.error.kind !== 'unknown_outcome') return fromGateway(r);
    if (intent) {
      // Journalled first, so a core restarted before the book tells can still settle it.
      try {
        d.journal.recordCheck(journalId, toCheck(intent, known));
      } catch (err) {
        d.logger.error('unknown outcome check not journalled', { journalId, reason: errorMessage(err) });
      }
      s.watcher.trackUnknown(journalId, intent, known, r.error.message);
      d.emit('orders.unknown', {
        profileId: s.profile.id,
        time: d.clock.now(),
        journalId,
        operation: intent.operation,
        ...(intent.operation === 'modifyorder' || intent.operation === 'cancelorder'
          ? { orderid: intent.orderid }
          : {}),
        message: r.error.message,
      });
    }
    return failResult('unknown_outcome', r.error.message, { journalId });
  }

  const handlers: Pick<Handlers, Exclude<OrderChannels, 'orders.cancelAll' | 'orders.closeAll'>> = {
    async 'orders.place'(input) {
      const s = d.session();
      const { confirmDuplicate, strategy, ...leg } = input;
      const request = { ...leg, strategy: strategy ?? s.profile.strategy };
      const held = heldBack(s, [riskLeg(leg)], confirmDuplicate);
      if (held) return refused(s, 'placeorder', request, 'unresolved_duplicate', held);
      const daily = await admitDaily(s, [leg]);
      if (!daily.ok) return refused(s, 'placeorder', request, 'risk', daily.message, daily.limit);
      const gate = await d.risk.check(orderReads(s), [riskLeg(leg)], {
        scope: s.profile.id,
        confirmDuplicate,
      });
      if (!gate.ok) {
        daily.release();
        return refused(s, 'placeorder', request, gate.kind, gate.message);
      }
      return settled(
        daily,
        await sendJournaled(s, 'placeorder', request, () => s.client.placeorder(request), {
          operation: 'placeorder',
          order: leg,
        }),
      );
    },

    async 'orders.modify'(input) {
      const s = d.session();
      const { confirmDuplicate: _c, strategy, ...order } = input;
      const request = { ...order, strategy: strategy ?? s.profile.strategy };
      // A modify is not a new order: the duplicate guard does not apply, the limits do.
      const gate = await d.risk.check(orderReads(s), [riskLeg(order)], {
        scope: s.profile.id,
        skipDuplicate: true,
      });
      if (!gate.ok) return refused(s, 'modifyorder', request, gate.kind, gate.message);
      return sendJournaled(s, 'modifyorder', request, () => s.client.modifyorder(request), {
        operation: 'modifyorder',
        orderid: order.orderid,
        changes: { quantity: order.quantity, price: order.price, trigger_price: order.trigger_price },
      });
    },

    async 'orders.cancel'(input) {
      const s = d.session();
      const request = { orderid: input.orderid, strategy: input.strategy ?? s.profile.strategy };
      return sendJournaled(s, 'cancelorder', request, () => s.client.cancelorder(request), {
        operation: 'cancelorder',
        orderid: input.orderid,
      });
    },

    async 'orders.closePosition'(input) {
      const s = d.session();
      const request = { strategy: input?.strategy ?? s.profile.strategy };
      return sendJournaled(s, 'closeposition', request, () => s.client.closeposition(request), {
        operation: 'closeposition',
        strategy: request.strategy,
      });
    },

    async 'orders.smart'(input) {
      const s = d.session();
      const { confirmDuplicate, strategy, ...rest } = input;
      const request = { ...rest, strategy: strategy ?? s.profile.strategy };
      // The order it will produce is what the checks judge; "no action" needs no checks.
      const preview = await previewSmart(orderReads(s), input, request.strategy);
      if (!preview.ok) return fromGateway(preview);
      const decided = preview.value.decision;
      let slot: { release(): void } = { release: () => undefined };
      if (decided.kind === 'order') {
        const held = heldBack(s, [riskLeg(decided.order)], confirmDuplicate);
        if (held) return refused(s, 'placesmartorder', request, 'unresolved_duplicate', held);
        const daily = await admitDaily(s, [decided.order]);
        if (!daily.ok) return refused(s, 'placesmartorder', request, 'risk', daily.message, daily.limit);
        slot = daily;
        const gate = await d.risk.check(orderReads(s), [riskLeg(decided.order)], {
          scope: s.profile.id,
          confirmDuplicate,
        });
        if (!gate.ok) {
          slot.release();
          return refused(s, 'placesmartorder', request, gate.kind, gate.message);
        }
      }
      return settled(
        slot,
        await sendJournaled(
          s,
          'placesmartorder',
          request,
          () => s.client.placesmartorder(request),
          decided.kind === 'order' ? { operation: 'placeorder', order: decided.order } : undefined,
        ),
      );
    },

    async 'orders.split'(input) {
      const s = d.session();
      const plan = splitPreview(input);
      if (!plan.ok) return failResult('invalid_input', plan.message);
      const { confirmDuplicate, strategy, ...rest } = input;
      const request = { ...rest, strategy: strategy ?? s.profile.strategy };
      // Each child is an order of its own: the per-order limits apply to the largest child and the
      // remainder (the same checks for equal children).
      const distinct = [...new Map(plan.value.children.map((c) => [c.quantity, c])).values()];
      // Held as the duplicate guard judges it: the one order the user asked for.
      const held = heldBack(s, [riskLeg(rest)], confirmDuplicate);
      if (held) return refused(s, 'splitorder', request, 'unresolved_duplicate', held);
      // Every child is an order the exchange sees: each counts towards the daily order count.
      const daily = await admitDaily(s, plan.value.children);
      if (!daily.ok) return refused(s, 'splitorder', request, 'risk', daily.message, daily.limit);
      const risk = await d.risk.check(orderReads(s), distinct.map(riskLeg), {
        scope: s.profile.id,
        skipDuplicate: true,
      });
      if (!risk.ok) {
        daily.release();
        return refused(s, 'splitorder', request, risk.kind, risk.message);
      }
      // The duplicate guard judges the split as the one order the user asked for.
      const dup = d.risk.admit([riskLeg(rest)], { scope: s.profile.id, confirmDuplicate });
      if (!dup.ok) {
        daily.release();
        return refused(s, 'splitorder', request, dup.kind, dup.message);
      }
      return settled(
        daily,
        await grouped(
          splitGroupTitle(rest.action, Number(rest.quantity), rest.symbol),
          plan.value.children,
          () =>
            sendJournaled(s, 'splitorder', request, () => s.client.splitorder(request), {
              operation: 'splitorder',
              strategy: request.strategy,
              orders: plan.value.children.map(placed),
            }),
        ),
      );
    },

    async 'orders.basket'(input) {
      const s = d.session();
      const request = { orders: input.orders, strategy: input.strategy ?? s.profile.strategy };
      const held = heldBack(s, input.orders.map(riskLeg), input.confirmDuplicate);
      if (held) return refused(s, 'basketorder', request, 'unresolved_duplicate', held);
      const daily = await admitDaily(s, input.orders);
      if (!daily.ok) return refused(s, 'basketorder', request, 'risk', daily.message, daily.limit);
      const gate = await d.risk.check(orderReads(s), input.orders.map(riskLeg), {
        scope: s.profile.id,
        confirmDuplicate: input.confirmDuplicate,
      });
      if (!gate.ok) {
        daily.release();
        return refused(s, 'basketorder', request, gate.kind, gate.message);
      }
      return settled(
        daily,
        await grouped(basketGroupTitle(input.orders.length), input.orders, () =>
          sendJournaled(s, 'basketorder', request, () => s.client.basketorder(request), {
            operation: 'basketorder',
            strategy: request.strategy,
            orders: input.orders.map(placed),
          }),
        ),
      );
    },

    async 'orders.previewSmart'(input) {
      const s = d.session();
      return fromGateway(await previewSmart(s.client, input, input.strategy ?? s.profile.strategy));
    },

    async 'orders.previewSplit'(input) {
      const plan = splitPreview(input);
      return plan.ok ? okResult(plan.value) : failResult('invalid_input', plan.message);
    },

    'risk.daily': async () => {
      const s = d.session();
      return okResult(d.daily.state(s.profile.id, d.limits(), dailyBooks(s)));
    },
  };

  return {
    ...handlers,
    // Cancel all and close all read the gateway's book now and cancel one order at a time.
    ...closeAllHandlers({
      session: d.session,
      clock: d.clock,
      emit: d.emit,
      cancel: handlers['orders.cancel'],
      closePosition: handlers['orders.closePosition'],
      cancelAllOrder: (s, request, orderids) =>
        sendJournaled(s, 'cancelallorder', request, () => s.client.cancelallorder(request), {
          operation: 'cancelallorder',
          strategy: request.strategy,
          orderids,
        }),
    }),
  };
}
