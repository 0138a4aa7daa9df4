// bench/metrics: what Prometheus scraping every second costs the order path (issue 31: orders/s
// within 3 % with and without scraping). One server on PostgreSQL, one set of traders, rounds
// of bench/orders' load alternating without and with a scrape of /metrics every second
// (ABBA order, so a machine that drifts during the run weighs on both sides alike).
//
//   node --import tsx bench/metrics/run.ts [--rounds 8] [--seconds 15] [--warmup 15] [--concurrency 100]
//
// Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, freshDatabase, load, runStamp, startServer } from '../lib/harness.ts';
import { orderPlacer } from '../lib/orders.ts';
import { createTraders, waitForPrices } from '../lib/traders.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '15' },
    concurrency: { type: 'string', default: '100' },
    users: { type: 'string', default: '1000' },
    warmup: { type: 'string', default: '15' },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const userCount = Number(values.users);
const TOKEN = crypto.randomBytes(24).toString('hex');

const databaseUrl = await freshDatabase('tw_bench_metrics');
// Orders of 300 s, none delivered during the run; 1,000 open orders a user (the install-wide
// limit, seeded at this first start) so a thousand traders carry every round.
const server = await startServer(databaseUrl, {
  ROLE: 'all',
  METRICS_TOKEN: TOKEN,
  CONTRACT_MAX_OPEN_ORDERS: '1000',
});
console.log(`server on ${server.baseUrl}; creating ${userCount} users`);
const users = await createTraders(server.baseUrl, databaseUrl, 'metrics', userCount, [
  { wallet: 'futures', asset: 'USDT', amountMinor: 1_000_000_000_000n },
]);
await waitForPrices(server.baseUrl);

const { place, close: closePool } = orderPlacer(server.baseUrl, users, concurrency);

/** Scrapes /metrics every second while `work` runs; returns the scrapes' sizes and durations. */
async function scraping<T>(work: Promise<T>): Promise<{ result: T; scrapes: number[] }> {
  const durations: number[] = [];
  let done = false;
  const scraper = (async () => {
    while (!done) {
      const t0 = performance.now();
      const response = await fetch(`${server.baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const text = await response.text();
      if (!response.ok || !text.includes('tradewind_orders_placed_total'))
        throw new Error(`scrape failed: ${response.status}`);
      durations.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - t0))));
    }
  })();
  const result = await work;
  done = true;
  await scraper;
  return { result, scrapes: durations };
}

// Warm-up, not counted: the first seconds after creating the traders run slower (JIT, caches,
// autovacuum of the new rows) and would weigh on whichever side comes first.
await load(Number(values.warmup), concurrency, place);
const runs: { scraped: boolean; ordersPerSecond: number; p99Ms: number; failed: number }[] = [];
let scrapeMs: number[] = [];
for (let round = 0; round < rounds; round++) {
  // ABBA: off, on, on, off, off, on, …
  const scraped = round % 4 === 1 || round % 4 === 2;
  const run = scraped
    ? await scraping(load(seconds, concurrency, place)).then(({ result, scrapes }) => {
        scrapeMs = scrapeMs.concat(scrapes);
        return result;
      })
    : await load(seconds, concurrency, place);
  runs.push({
    scraped,
    ordersPerSecond: Math.round(run.rate),
    p99Ms: Number(run.p99.toFixed(1)),
    failed: run.failed,
  });
  console.log(
    `round ${round + 1}: ${scraped ? 'scraped every second' : 'no scraping'}: ${Math.round(run.rate)} orders/s, p99 ${run.p99.toFixed(1)} ms, ${run.failed} failed`,
  );
}
const finalScrape = await (
  await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
).text();
closePool();
await server.stop();

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const without = mean(runs.filter((r) => !r.scraped).map((r) => r.ordersPerSecond));
const withScrape = mean(runs.filter((r) => r.scraped).map((r) => r.ordersPerSecond));
scrapeMs.sort((a, b) => a - b);
const result = {
  ...runStamp(),
  seconds,
  rounds,
  warmupSeconds: Number(values.warmup),
  concurrency,
  users: userCount,
  runs,
  ordersPerSecond: {
    withoutScraping: Math.round(without),
    scrapedEverySecond: Math.round(withScrape),
  },
  change: Number(((withScrape - without) / without).toFixed(4)),
  scrape: {
    count: scrapeMs.length,
    p50Ms: Number((scrapeMs[Math.floor(scrapeMs.length / 2)] ?? 0).toFixed(1)),
    maxMs: Number((scrapeMs.at(-1) ?? 0).toFixed(1)),
    bytes: Buffer.byteLength(finalScrape),
  },
  target: { maxChange: 0.03 },
};
fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
fs.writeFileSync(
  path.join(ROOT, 'bench/results/metrics.json'),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(JSON.stringify(result, null, 2));
if (runs.some((r) => r.failed > 0)) process.exitCode = 1;
