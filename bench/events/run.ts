// bench/events: cross-node delivery of real-time events, PostgreSQL LISTEN/NOTIFY beside NATS
// subjects, in one run on this machine (issue 30, decision 0027).
//
//   node --import tsx bench/events/run.ts [--sockets 300] [--rate 20] [--noise 2000] [--seconds 10] [--rounds 2]
//
// Per round and transport: a fresh PostgreSQL database, two API nodes (bench/events/node.ts,
// one process each). `--sockets` clients connect to node 2 and subscribe to the public channel
// `messages.broadcast`; node 1 publishes `--rate` events a second to it, and `--noise` user
// events a second for users with no socket on node 2 (a busy node's own traffic). Reported:
// delivery latency at node 2's clients (node 1's publish → the client's receive) p50/p99,
// events lost, and how many events node 2 had to take in. Needs PostgreSQL (BENCH_DATABASE_URL,
// default 127.0.0.1:5432) and NATS (BENCH_NATS_URL, default nats://127.0.0.1:4222).
import { type ChildProcess, fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { openDatabase } from '../../apps/server/src/platform/db.ts';
import { ROOT, freshDatabase, percentile, runStamp } from '../lib/harness.ts';

const { values } = parseArgs({
  options: {
    sockets: { type: 'string', default: '300' },
    rate: { type: 'string', default: '20' },
    noise: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
  },
});
const socketCount = Number(values.sockets);
const rate = Number(values.rate);
const noiseRate = Number(values.noise);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const NOISE_USERS = 5_000;
const now = () => performance.timeOrigin + performance.now();

type Transport = 'pg' | 'nats';

interface Node {
  child: ChildProcess;
  port: number;
  next: <T>(key: string) => Promise<T>;
}

async function startNode(transport: Transport, databaseUrl: string, prefix: string): Promise<Node> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-events-'));
  const child = fork(path.join(ROOT, 'bench/events/node.ts'), [transport, databaseUrl, dataDir], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_NATS_PREFIX: prefix },
  });
  const waiting = new Map<string, (value: unknown) => void>();
  child.on('message', (message: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(message)) {
      waiting.get(key)?.(value);
      waiting.delete(key);
    }
  });
  const next = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      waiting.set(key, resolve as (value: unknown) => void);
      child.once('exit', (code) => reject(new Error(`node exited with ${code}`)));
    });
  const port = await next<number>('listening');
  return { child, port, next };
}

interface RoundResult {
  transport: Transport;
  delivered: number;
  expected: number;
  p50: number;
  p99: number;
  max: number;
  /** Events node 2 took in from node 1 (it holds no socket of the noise's users). */
  node2Received: number;
  node1Published: number;
}

async function round(transport: Transport): Promise<RoundResult> {
  const databaseUrl = await freshDatabase('tw_bench_events');
  const database = await openDatabase({ databaseUrl, dataDir: os.tmpdir(), poolSize: 2 });
  await database.migrate();
  await database.close();
  const prefix = `twbench${crypto.randomBytes(3).toString('hex')}`;
  const node1 = await startNode(transport, databaseUrl, prefix);
  const node2 = await startNode(transport, databaseUrl, prefix);

  const latencies: number[] = [];
  const sockets: WebSocket[] = [];
  let subscribed = 0;
  const BATCH = 100;
  for (let i = 0; i < socketCount; i += BATCH) {
    await Promise.all(
      Array.from(
        { length: Math.min(BATCH, socketCount - i) },
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = new WebSocket(`ws://127.0.0.1:${node2.port}/ws`);
            sockets.push(socket);
            socket.on('error', reject);
            socket.on('open', () =>
              socket.send(
                JSON.stringify({ op: 'subscribe', channel: 'messages.broadcast', id: 1 }),
              ),
            );
            socket.on('message', (raw: Buffer) => {
              const received = now();
              const text = raw.toString();
              const at = text.lastIndexOf('"sentAt":');
              if (at >= 0) latencies.push(received - Number.parseFloat(text.slice(at + 9)));
              else if ((JSON.parse(text) as { ok?: boolean }).ok) {
                subscribed++;
                resolve();
              }
            });
          }),
      ),
    );
  }
  if (subscribed !== socketCount) throw new Error(`only ${subscribed} sockets subscribed`);
  // Node 1 hears of node 2 (LISTEN/NOTIFY's peer announcements; NATS's subscriptions) within a round trip.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const before = await (node2.child.send({ count: true }), node2.next<number>('received'));
  node1.child.send({ start: { rate, seconds, noiseRate, noiseUsers: NOISE_USERS } });
  const published = await node1.next<number>('published');
  // What is still on its way gets until nothing has arrived for 2 s (at most 30 s).
  const waitUntil = Date.now() + 30_000;
  let seen = -1;
  while (
    latencies.length < published * socketCount &&
    latencies.length !== seen &&
    Date.now() < waitUntil
  ) {
    seen = latencies.length;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  const after = await (node2.child.send({ count: true }), node2.next<number>('received'));
  for (const socket of sockets) socket.terminate();
  for (const node of [node1, node2]) {
    node.child.send({ stop: true });
    await new Promise((resolve) => node.child.once('exit', resolve));
  }
  latencies.sort((a, b) => a - b);
  const round2 = (value: number) => Math.round(value * 100) / 100;
  return {
    transport,
    delivered: latencies.length,
    expected: published * socketCount,
    p50: round2(percentile(latencies, 50)),
    p99: round2(percentile(latencies, 99)),
    max: round2(latencies.at(-1) ?? Number.NaN),
    node2Received: after - before,
    node1Published: published + noiseRate * seconds,
  };
}

const results: RoundResult[] = [];
for (let r = 0; r < rounds; r++) {
  // Alternating, so neither transport always runs on a warmer (or busier) machine.
  for (const transport of (r % 2 === 0 ? ['pg', 'nats'] : ['nats', 'pg']) as Transport[]) {
    const result = await round(transport);
    results.push(result);
    console.log(
      `  round ${r + 1} ${transport}: p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms, delivered ${result.delivered}/${result.expected}, node 2 took in ${result.node2Received} events`,
    );
  }
}
const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const of = (transport: Transport) => results.filter((r) => r.transport === transport);
const summary = {
  ...runStamp(),
  node: process.version,
  sockets: socketCount,
  rate,
  noiseRate,
  seconds,
  rounds,
  pg: {
    p50Ms: median(of('pg').map((r) => r.p50)),
    p99Ms: median(of('pg').map((r) => r.p99)),
    lost: of('pg').reduce((sum, r) => sum + r.expected - r.delivered, 0),
    node2ReceivedPerRound: median(of('pg').map((r) => r.node2Received)),
  },
  nats: {
    p50Ms: median(of('nats').map((r) => r.p50)),
    p99Ms: median(of('nats').map((r) => r.p99)),
    lost: of('nats').reduce((sum, r) => sum + r.expected - r.delivered, 0),
    node2ReceivedPerRound: median(of('nats').map((r) => r.node2Received)),
  },
  rounds_detail: results,
};
console.log(
  `\nevents: ${socketCount} sockets on node 2, ${rate} broadcast events/s + ${noiseRate} user events/s from node 1 for ${seconds} s, median of ${rounds} rounds`,
);
for (const transport of ['pg', 'nats'] as const) {
  const s = summary[transport];
  console.log(
    `  ${transport === 'pg' ? 'LISTEN/NOTIFY' : 'NATS'}: p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms, lost ${s.lost}, node 2 took in ${s.node2ReceivedPerRound} events a round`,
  );
}
fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
fs.writeFileSync(
  path.join(ROOT, 'bench/results/events.json'),
  `${JSON.stringify(summary, null, 2)}\n`,
);
