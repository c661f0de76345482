// Loaded with `node --import` into a process under test (ORDERDESK_NET_RECORD names the file): appends
// one JSON line per outgoing TCP connection the process opens ({host, port}, or {path} for a local
// socket). Every client in Node (fetch/undici, http, ws, tls) connects through net.Socket#connect, so
// this sees them all, before any DNS lookup.
import { appendFileSync } from 'node:fs';
import net from 'node:net';

const file = process.env.ORDERDESK_NET_RECORD;
if (file) {
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function recordedConnect(...args) {
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    let entry;
    if (typeof first === 'object' && first !== null)
      entry = first.path
        ? { path: String(first.path) }
        : { host: String(first.host ?? 'localhost'), port: Number(first.port) };
    else if (typeof first === 'string' && Number.isNaN(Number(first))) entry = { path: first };
    else entry = { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: Number(first) };
    appendFileSync(file, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
    return connect.apply(this, args);
  };
}
