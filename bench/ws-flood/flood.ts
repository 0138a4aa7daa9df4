// The attacker of bench/ws-flood, in its own process so its sending never delays the
// latency probes: `sockets` unauthenticated sockets each send `{"op":"ping"}` as fast as the
// connection takes them (the cheapest message to send, and one the server must parse and
// answer), and open a new socket the moment one is closed or refused, for `seconds`. With
// `churn` > 0 each socket instead sends that many pings, is dropped at once and replaced: an
// attacker staying under the message budget by spending connections instead.
//
//   node --import tsx bench/ws-flood/flood.ts <ws-url> <sockets> <seconds> [queued-kib] [churn]
//
// Reports its counters to the parent over IPC when it stops.
import WebSocket from 'ws';

const [url, socketsArg, secondsArg, queuedKibArg = '1024', churnArg = '0'] = process.argv.slice(2);
const churn = Number(churnArg);
if (!url || !socketsArg || !secondsArg)
  throw new Error('usage: flood.ts <ws-url> <sockets> <seconds>');
const socketCount = Number(socketsArg);
const deadline = performance.now() + Number(secondsArg) * 1000;

const MESSAGE = JSON.stringify({ op: 'ping' });
/**
 * Kept queued on each socket: enough that the connection never idles. Less means less to
 * drain once the server closes the socket, so the attacker reconnects more often.
 */
const QUEUED_BYTES = Number(queuedKibArg) * 1024;
/** Sends per turn of the event loop, so replies and closes are still read between bursts. */
const BURST = 2_000;

const counters = {
  connects: 0,
  sent: 0,
  answered: 0,
  closed1008: 0,
  closedOther: 0,
  refused: 0,
  refusedStatus: {} as Record<string, number>,
  errors: 0,
};
const sockets = new Set<WebSocket>();

function attack(): void {
  if (performance.now() >= deadline) return;
  const socket = new WebSocket(url as string, { perMessageDeflate: false });
  sockets.add(socket);
  let replaced = false;
  // A closed or refused socket is replaced at once, as an attacker would.
  const replace = () => {
    sockets.delete(socket);
    if (replaced) return;
    replaced = true;
    setImmediate(attack);
  };
  const pump = () => {
    if (socket.readyState !== WebSocket.OPEN || performance.now() >= deadline) return;
    for (let i = 0; i < BURST && socket.bufferedAmount < QUEUED_BYTES; i++) {
      socket.send(MESSAGE);
      counters.sent++;
    }
    // A full queue is polled, not spun on: on a shared machine a spinning attacker would take
    // the server's CPU and be measured as the server's slowness.
    if (socket.bufferedAmount < QUEUED_BYTES) setImmediate(pump);
    else setTimeout(pump, 1);
  };
  socket.on('open', () => {
    counters.connects++;
    if (churn === 0) return pump();
    for (let i = 0; i < churn; i++) socket.send(MESSAGE);
    counters.sent += churn;
    socket.terminate();
  });
  socket.on('message', () => counters.answered++);
  socket.on('unexpected-response', (request, response) => {
    counters.refused++;
    const status = String(response.statusCode);
    counters.refusedStatus[status] = (counters.refusedStatus[status] ?? 0) + 1;
    request.destroy();
    response.resume();
    replace();
  });
  socket.on('error', () => {
    counters.errors++;
    replace();
  });
  socket.on('close', (code) => {
    if (code === 1008) counters.closed1008++;
    else counters.closedOther++;
    replace();
  });
}

for (let i = 0; i < socketCount; i++) attack();

await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - performance.now())));
for (const socket of sockets) socket.terminate();
process.send?.({ counters });
process.disconnect?.();
setTimeout(() => process.exit(0), 200).unref();
