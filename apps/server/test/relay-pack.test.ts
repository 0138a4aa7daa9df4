import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MAX_NOTIFY_BYTES, NOTIFY_CHANNEL, PgRelay, unpack } from '../src/platform/relay.ts';

/**
 * The PostgreSQL relay packs the events of one turn of the event loop into as few
 * notifications as fit (relay.test.ts runs it on a real PostgreSQL): here, against a
 * stand-in client that records what would be sent and plays notifications back.
 */
class FakeClient extends EventEmitter {
  readonly queries: { text: string; values: unknown[] }[] = [];
  async query(text: string, values: unknown[] = []): Promise<{ rows: unknown[] }> {
    this.queries.push({ text, values });
    return { rows: [] };
  }
  async end(): Promise<void> {}
  /** What PostgreSQL would deliver for the flushes so far: each notification of each flush, in order. */
  notifications(): string[] {
    return this.queries
      .filter((q) => q.text.includes('pg_notify'))
      .flatMap((q) => String(q.values[1]).split(String(q.values[2])));
  }
}

async function relayOn(client: FakeClient, listen?: boolean): Promise<PgRelay> {
  const relay = new PgRelay({ connect: async () => client as unknown as pg.Client, ...(listen === undefined ? {} : { listen }) });
  await relay.start();
  return relay;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the PostgreSQL relay packs events into notifications', () => {
  it('2,000 events of one turn go out in a few notifications, each under the limit, and arrive in order, whole', async () => {
    const sending = new FakeClient();
    const sender = await relayOn(sending, false);
    expect(sending.queries.map((q) => q.text)).not.toContain(`LISTEN ${NOTIFY_CHANNEL}`);
    const sent: string[] = [];
    for (let i = 0; i < 2_000; i++) {
      // Newlines, digits and characters of more than one byte, as JSON and messages carry them.
      const payload = `user.${i}\n${JSON.stringify({ i, text: `Kontrakt abgerechnet · 合约已结算 ${'x'.repeat(i % 700)}\n` })}`;
      sent.push(payload);
      sender.send('hub', payload);
    }
    await turn();
    await turn();
    const notifications = sending.notifications();
    expect(notifications.length).toBeGreaterThan(50);
    expect(notifications.length).toBeLessThan(400);
    for (const n of notifications) expect(Buffer.byteLength(n)).toBeLessThanOrEqual(MAX_NOTIFY_BYTES);

    const listening = new FakeClient();
    const receiver = await relayOn(listening);
    expect(listening.queries.map((q) => q.text)).toContain(`LISTEN ${NOTIFY_CHANNEL}`);
    const received: string[] = [];
    receiver.on('hub', (payload) => received.push(payload));
    for (const payload of notifications) listening.emit('notification', { channel: NOTIFY_CHANNEL, payload, processId: 1 });
    expect(received).toEqual(sent);
    await sender.close();
    await receiver.close();
  });

  it("a process skips its own notifications and ignores what is not in the relay's format", async () => {
    const client = new FakeClient();
    const relay = await relayOn(client);
    const heard: string[] = [];
    relay.on('t', (payload) => heard.push(payload));
    relay.send('t', 'mine');
    expect(heard).toEqual(['mine']);
    await turn();
    for (const payload of client.notifications()) client.emit('notification', { channel: NOTIFY_CHANNEL, payload, processId: 1 });
    client.emit('notification', { channel: NOTIFY_CHANNEL, payload: 'someone\nt\nnot packed', processId: 2 });
    client.emit('notification', { channel: NOTIFY_CHANNEL, payload: 'tw2\nother\nt\n99\nshort', processId: 2 });
    expect(heard).toEqual(['mine']);
    await relay.close();
  });

  it('unpack reads frames back by length, whatever they contain', () => {
    expect(unpack('tw2\norigin\na\n3\nx\nyb\n0\n')).toEqual({ origin: 'origin', events: [{ topic: 'a', payload: 'x\ny' }, { topic: 'b', payload: '' }] });
    expect(unpack('tw2\norigin\na\n-1\n')).toBeNull();
    expect(unpack('origin\na\nb')).toBeNull();
  });
});
