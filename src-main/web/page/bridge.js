// @ts-check
// Browser mode's window.bridge: the same BridgeApi the Electron preload gives (invoke/on, nothing
// else), over one WebSocket to the host that served this page. Served by the host as a same-origin
// classic script, so it runs before the renderer's module. Plain JS: it is served as is, unbuilt.
(function installBridge(win) {
  'use strict';
  const PATH = '/bridge';
  /** How long a call waits for the socket to open before it fails. */
  const CONNECT_WAIT_MS = 10000;
  const RETRY_MIN_MS = 500;
  const RETRY_MAX_MS = 10000;

  /** @type {Map<number, {channel: string, resolve: (r: unknown) => void}>} */
  const pending = new Map();
  /** @type {Map<string, Set<(payload: unknown) => void>>} */
  const listeners = new Map();
  /** @type {Array<() => void>} calls waiting for the socket to open */
  let waiting = [];
  /** @type {WebSocket | undefined} */
  let socket;
  let nextId = 1;
  let retryMs = RETRY_MIN_MS;
  /** Whether the page has had the link: only then is a close "lost" and an open "back". */
  let wasOpen = false;

  /**
   * The link's state for the page (outside BridgeApi, which is the same under Electron): a window
   * event `orderdesk:link` with detail 'open' or 'lost'.
   * @param {'open' | 'lost'} state
   */
  function announce(state) {
    win.dispatchEvent(new CustomEvent('orderdesk:link', { detail: state }));
  }

  /** @param {string} kind @param {string} message */
  function failure(kind, message) {
    return { ok: false, error: { kind, message } };
  }

  /** The orders.* channels that only read: every other one acts, so a new action is never missed. */
  const ORDER_READS = new Set([
    'orders.previewSmart',
    'orders.previewSplit',
    'orders.status',
    'orders.openPosition',
  ]);

  /** Mutations whose answer was lost may still have happened: the order book settles it. */
  /** @param {string} channel */
  function isMutation(channel) {
    return channel.startsWith('orders.') && !ORDER_READS.has(channel);
  }

  /** @param {string} name @param {unknown} payload */
  function dispatch(name, payload) {
    const set = listeners.get(name);
    if (!set) return;
    for (const cb of [...set]) {
      try {
        cb(payload);
      } catch (err) {
        console.error('bridge listener for', name, 'failed:', err);
      }
    }
  }

  /** @param {MessageEvent} message */
  function onMessage(message) {
    /** @type {any} */
    let frame;
    try {
      frame = JSON.parse(String(message.data));
    } catch {
      console.error('bridge: the host sent a frame that is not JSON');
      return;
    }
    if (frame && frame.type === 'reply') {
      if (typeof frame.id !== 'number') {
        console.error('bridge: the host refused a frame:', frame.result && frame.result.error);
        return;
      }
      const call = pending.get(frame.id);
      if (!call) return;
      pending.delete(frame.id);
      call.resolve(frame.result);
    } else if (frame && frame.type === 'event' && typeof frame.name === 'string') {
      dispatch(frame.name, frame.payload);
    }
  }

  function onClose() {
    socket = undefined;
    for (const [id, call] of pending) {
      pending.delete(id);
      call.resolve(
        isMutation(call.channel)
          ? failure(
              'unknown_outcome',
              'The link to OrderDesk was lost before the answer came; check the order book before sending again.',
            )
          : failure('network', 'The link to OrderDesk was lost before the answer came.'),
      );
    }
    if (wasOpen) announce('lost');
    wasOpen = false;
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  }

  function connect() {
    const ws = new WebSocket(`ws://${win.location.host}${PATH}`);
    socket = ws;
    ws.addEventListener('open', () => {
      retryMs = RETRY_MIN_MS;
      wasOpen = true;
      announce('open');
      const ready = waiting;
      waiting = [];
      for (const go of ready) go();
    });
    ws.addEventListener('message', onMessage);
    ws.addEventListener('close', onClose);
  }

  /** Resolves true once the socket is open, false after CONNECT_WAIT_MS. */
  function whenOpen() {
    if (socket && socket.readyState === WebSocket.OPEN) return Promise.resolve(true);
    return new Promise((resolve) => {
      const go = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        waiting = waiting.filter((w) => w !== go);
        resolve(false);
      }, CONNECT_WAIT_MS);
      waiting.push(go);
    });
  }

  /** @param {WebSocket} ws @param {string} channel @param {unknown} [input] */
  function send(ws, channel, input) {
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, { channel, resolve });
      try {
        ws.send(JSON.stringify(input === undefined ? { id, channel } : { id, channel, input }));
      } catch (err) {
        pending.delete(id);
        resolve(failure('invalid_input', `could not send the call: ${String(err)}`));
      }
    });
  }

  /** @param {string} channel @param {unknown} [input] */
  function invoke(channel, input) {
    // With the link open the frame leaves within this call, before the page's own updates of the
    // turn (the ticket's "Sending…") render: no microtask hop on an order's way out.
    if (socket && socket.readyState === WebSocket.OPEN) return send(socket, channel, input);
    return whenOpen().then((open) =>
      open && socket
        ? send(socket, channel, input)
        : failure('network', 'Not connected to the OrderDesk host; is npm run web still running?'),
    );
  }

  /** @param {string} event @param {(payload: unknown) => void} cb */
  function on(event, cb) {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(cb);
    return () => {
      set.delete(cb);
    };
  }

  Object.defineProperty(win, 'bridge', {
    value: Object.freeze({ invoke, on }),
    writable: false,
    configurable: false,
    enumerable: true,
  });
  connect();
})(window);
