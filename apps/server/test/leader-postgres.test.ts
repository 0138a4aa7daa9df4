import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { AdvisoryLeader } from '../src/platform/leader.ts';

const url = process.env.TEST_DATABASE_URL;

/** One recorder among several workers: a session advisory lock held on a connection of its own. */
describe.skipIf(!url)('leadership by advisory lock (PostgreSQL)', () => {
  const lockId = 990_000 + Math.floor(Math.random() * 9_000);
  const connections: pg.Client[] = [];
  const connect = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    connections.push(client);
    return client;
  };

  it('exactly one leads; when its connection dies another takes over at its next round', async () => {
    const changes: string[] = [];
    const a = new AdvisoryLeader({
      connect,
      lockId,
      onChange: (leading) => changes.push(`a:${leading}`),
    });
    const b = new AdvisoryLeader({
      connect,
      lockId,
      onChange: (leading) => changes.push(`b:${leading}`),
    });
    expect(await a.lead()).toBe(true);
    expect(await b.lead()).toBe(false);
    expect(await a.lead()).toBe(true);
    expect(await b.lead()).toBe(false);
    // The leader's process dies (kill -9): the server sees its connection end and frees the lock.
    const leaderConnection = connections[0] as pg.Client;
    const admin = await connect();
    await admin.query('select pg_terminate_backend($1)', [
      (leaderConnection as unknown as { processID: number }).processID,
    ]);
    const deadline = Date.now() + 5_000;
    let taken = false;
    while (!taken && Date.now() < deadline) {
      taken = await b.lead();
      if (!taken) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(taken).toBe(true);
    // The old leader finds out at its next round and does not lead beside the new one.
    expect(await a.lead()).toBe(false);
    // (The old leader may hear of its dead connection before the new one asks, or after.)
    expect(changes[0]).toBe('a:true');
    expect([...changes.slice(1)].sort()).toEqual(['a:false', 'b:true']);
    await b.release();
    expect(await a.lead()).toBe(true);
    await a.release();
    for (const client of connections) await client.end().catch(() => undefined);
  });
});
