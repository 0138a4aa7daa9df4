// bench/orders' load, shared with bench/metrics: instant-contract orders of 300 s (none is
// delivered during a run) from many traders, over lean keep-alive connections.
import crypto from 'node:crypto';
import { RawHttpPool } from './raw-http.ts';
import { TRADE_PIN } from './traders.ts';

const OK_PREFIX = Buffer.from('{"code":0,');
const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT'];

/**
 * `place(i)` posts the i-th order (trader, symbol and direction by turns) and says whether it
 * was placed: HTTP 200 with code 0. The load comes over `concurrency` keep-alive connections
 * from a lean HTTP/1.1 client (`raw-http.ts`): node:http's client took about 0.4 of the two
 * cores the server and PostgreSQL share.
 */
export function orderPlacer(
  baseUrl: string,
  users: readonly { token: string }[],
  concurrency: number,
): { place: (i: number) => Promise<boolean>; close: () => void } {
  const pool = new RawHttpPool(baseUrl, concurrency);
  const post = async (token: string, body: string): Promise<{ code: number; message: string }> => {
    const head = `POST /api/v1/contracts/orders HTTP/1.1\r\nhost: bench\r\ncontent-type: application/json\r\nauthorization: Bearer ${token}\r\nidempotency-key: bench-${crypto.randomUUID()}`;
    const reply = await pool.request(head, body);
    if (reply.status === 200 && reply.body.subarray(0, OK_PREFIX.length).equals(OK_PREFIX))
      return { code: 0, message: 'ok' };
    return JSON.parse(reply.body.toString('utf8'));
  };
  const place = async (i: number) => {
    const user = users[i % users.length] as { token: string };
    const reply = await post(
      user.token,
      JSON.stringify({
        symbol: SYMBOLS[i % SYMBOLS.length],
        direction: i % 2 ? 'up' : 'down',
        periodId: 4,
        amount: '10',
        tradePassword: TRADE_PIN,
      }),
    );
    if (reply.code !== 0 && i % 1000 === 0)
      console.error(`order refused: ${reply.code} ${reply.message}`);
    return reply.code === 0;
  };
  return { place, close: () => pool.close() };
}
