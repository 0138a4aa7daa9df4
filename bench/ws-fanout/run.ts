// bench/ws-fanout: 5,000 WebSocket clients subscribed to one ticker at 10 messages/s.
// Delivery latency (server send → client receive) through Tradewind's own /ws, beside a
// bare `ws` broadcast server measured in the same run, plus the Tradewind server's memory.
//
//   node --import tsx bench/ws-fanout/run.ts [--clients 5000] [--rate 10] [--seconds 15] [--rounds 4]
//
// Targets (issue 4): Tradewind p99 within 1.1× the bare server's; server RSS ≤ 250 MB.
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { ROOT, percentile } from '../lib/harness.ts';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '5000' },
    rate: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '15' },
    rounds: { type: 'string', default: '4' },
  },
});
const clientCount = Number(values.clients);
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const now = () => performance.timeOrigin + performance.now();

interface RoundResult {
  server: string;
  delivered: number;
  expected: number;
  p50: number;
  p99: number;
  max: number;
  serverPeakRssMb: number;
}

async function round(kind: 'tradewind' | 'bare'): Promise<RoundResult> {
  const child: ChildProcess = fork(path.join(ROOT, 'bench/ws-fanout/servers.ts'), [kind], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let peakRss = 0;
  let done: (() => void) | null = null;
  const port = await new Promise<number>((resolve, reject) => {
    child.on('message', (message: { listening?: number; peakRss?: number; done?: number }) => {
      if (message.listening) resolve(message.listening);
      if (message.peakRss) peakRss = Math.max(peakRss, message.peakRss);
      if (message.done !== undefined) done?.();
    });
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });

  const latencies: number[] = [];
  const sockets: WebSocket[] = [];
  let subscribed = 0;
  const BATCH = 250;
  for (let i = 0; i < clientCount; i += BATCH) {
    await Promise.all(
      Array.from(
        { length: Math.min(BATCH, clientCount - i) },
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
            sockets.push(socket);
            socket.on('error', reject);
            socket.on('open', () =>
              socket.send(JSON.stringify({ op: 'subscribe', channel: 'ticker.BTCUSDT', id: 1 })),
            );
            socket.on('message', (raw: Buffer) => {
              const received = now();
              // The client is the bottleneck of this measurement (one process receives 50,000
              // messages a second): read `sentAt` without parsing the whole message.
              const text = raw.toString();
              const at = text.lastIndexOf('"sentAt":');
              if (at >= 0) {
                latencies.push(received - Number.parseFloat(text.slice(at + 9)));
              } else if ((JSON.parse(text) as { op?: string; ok?: boolean }).ok) {
                subscribed++;
                resolve();
              }
            });
          }),
      ),
    );
  }
  if (subscribed !== clientCount)
    throw new Error(`only ${subscribed} of ${clientCount} subscribed`);

  await new Promise<void>((resolve) => {
    done = resolve;
    child.send({ start: { rate, seconds } });
  });
  for (const socket of sockets) socket.terminate();
  child.kill('SIGKILL');
  latencies.sort((a, b) => a - b);
  const round2 = (n: number) => Math.round(n * 100) / 100;
  return {
    server: kind,
    delivered: latencies.length,
    expected: clientCount * rate * seconds,
    p50: round2(percentile(latencies, 50)),
    p99: round2(percentile(latencies, 99)),
    max: round2(latencies.at(-1) ?? Number.NaN),
    serverPeakRssMb: Math.round(peakRss / 1_048_576),
  };
}

const results: RoundResult[] = [];
for (let r = 0; r < rounds; r++) {
  for (const kind of ['bare', 'tradewind'] as const) {
    const result = await round(kind);
    console.log(JSON.stringify(result));
    results.push(result);
  }
}

// Rounds alternate bare, tradewind, bare, …, so each pair ran under the same conditions;
// the figure is the median over rounds (the machine is shared with the load generator).
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const best = (kind: string, key: 'p99' | 'p50') =>
  median(results.filter((r) => r.server === kind).map((r) => r[key]));
const pairedRatios = results
  .filter((r) => r.server === 'tradewind')
  .map((r, i) => r.p99 / (results.filter((b) => b.server === 'bare')[i] as RoundResult).p99);
const summary = {
  clients: clientCount,
  rate,
  seconds,
  rounds,
  bareP99Ms: best('bare', 'p99'),
  tradewindP99Ms: best('tradewind', 'p99'),
  bareP50Ms: best('bare', 'p50'),
  tradewindP50Ms: best('tradewind', 'p50'),
  p99Ratio: Math.round((best('tradewind', 'p99') / best('bare', 'p99')) * 100) / 100,
  pairedP99Ratios: pairedRatios.map((r) => Math.round(r * 100) / 100),
  tradewindPeakRssMb: Math.max(
    ...results.filter((r) => r.server === 'tradewind').map((r) => r.serverPeakRssMb),
  ),
  allDelivered: results.every((r) => r.delivered === r.expected),
  rounds_detail: results,
  cpus: (await import('node:os')).cpus().length,
  node: process.version,
  at: new Date().toISOString(),
};
console.log(
  `\nws-fanout: ${clientCount} clients × ${rate} msg/s for ${seconds} s, median of ${rounds} rounds`,
);
console.log(`  bare ws:   p50 ${summary.bareP50Ms} ms, p99 ${summary.bareP99Ms} ms`);
console.log(
  `  tradewind: p50 ${summary.tradewindP50Ms} ms, p99 ${summary.tradewindP99Ms} ms (${summary.p99Ratio}× bare; target ≤ 1.1×), peak RSS ${summary.tradewindPeakRssMb} MB (target ≤ 250)`,
);
console.log(
  `  every message delivered: ${summary.allDelivered}; p99 ratio per round: ${summary.pairedP99Ratios.join(', ')}`,
);
fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
fs.writeFileSync(
  path.join(ROOT, 'bench/results/ws-fanout.json'),
  `${JSON.stringify(summary, null, 2)}\n`,
);
