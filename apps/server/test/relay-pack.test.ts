import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import {
  MAX_NOTIFY_BYTES,
  NOTIFY_CHANNEL,
  PEER_TOPIC,
  PgRelay,
  unpack,
} from '../src/platform/relay.ts';

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
  const relay = new PgRelay({
    connect: async () => client as unknown as pg.Client,
    ...(listen === undefined ? {} : { listen }),
  });
  await relay.start();
  return relay;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** What another listening process at `origin` would send: one event of the relay's own topic. */
function announcement(
  origin: string,
  what: 'ask' | 'here' | 'bye',
): { channel: string; payload: string; processId: number } {
  return {
    channel: NOTIFY_CHANNEL,
    payload: `tw2\n${origin}\n${PEER_TOPIC}\n${what.length}\n${what}`,
    processId: 2,
  };
}

/** The events (topic and payload) of every notification sent so far, in order. */
function sentEvents(client: FakeClient): { topic: string; payload: string }[] {
  return client.notifications().flatMap((n) => unpack(n)?.events ?? []);
}

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
    for (const n of notifications)
      expect(Buffer.byteLength(n)).toBeLessThanOrEqual(MAX_NOTIFY_BYTES);

    const listening = new FakeClient();
    const receiver = await relayOn(listening);
    expect(listening.queries.map((q) => q.text)).toContain(`LISTEN ${NOTIFY_CHANNEL}`);
    const received: string[] = [];
    receiver.on('hub', (payload) => received.push(payload));
    for (const payload of notifications)
      listening.emit('notification', { channel: NOTIFY_CHANNEL, payload, processId: 1 });
    expect(received).toEqual(sent);
    await sender.close();
    await receiver.close();
  });

  it("a process skips its own notifications and ignores what is not in the relay's format", async () => {
    const client = new FakeClient();
    const relay = await relayOn(client);
    client.emit('notification', announcement('peer', 'here'));
    const heard: string[] = [];
    relay.on('t', (payload) => heard.push(payload));
    relay.send('t', 'mine');
    expect(heard).toEqual(['mine']);
    await turn();
    for (const payload of client.notifications())
      client.emit('notification', { channel: NOTIFY_CHANNEL, payload, processId: 1 });
    client.emit('notification', {
      channel: NOTIFY_CHANNEL,
      payload: 'someone\nt\nnot packed',
      processId: 2,
    });
    client.emit('notification', {
      channel: NOTIFY_CHANNEL,
      payload: 'tw2\nother\nt\n99\nshort',
      processId: 2,
    });
    expect(heard).toEqual(['mine']);
    expect(sentEvents(client)).toContainEqual({ topic: 't', payload: 'mine' });
    await relay.close();
  });

  it('unpack reads frames back by length, whatever they contain', () => {
    expect(unpack('tw2\norigin\na\n3\nx\nyb\n0\n')).toEqual({
      origin: 'origin',
      events: [
        { topic: 'a', payload: 'x\ny' },
        { topic: 'b', payload: '' },
      ],
    });
    expect(unpack('tw2\norigin\na\n-1\n')).toBeNull();
    expect(unpack('origin\na\nb')).toBeNull();
  });
});

describe('a listening process sends only while another listening process is there', () => {
  it('alone, it delivers to its own handlers and sends nothing; with a peer it sends; after the peer says bye, nothing again', async () => {
    const client = new FakeClient();
    const relay = await relayOn(client);
    const heard: string[] = [];
    relay.on('t', (payload) => heard.push(payload));
    // Announcements are the relay's own: they never reach a handler of their topic.
    relay.on(PEER_TOPIC, (payload) => heard.push(`announcement ${payload}`));
    await turn();
    // It announced itself once, asking who is there.
    expect(sentEvents(client)).toEqual([{ topic: PEER_TOPIC, payload: 'ask' }]);
    expect(relay.reachesOthers).toBe(false);

    relay.send('t', 'alone');
    await turn();
    expect(heard).toEqual(['alone']);
    expect(sentEvents(client).filter((e) => e.topic === 't')).toEqual([]);

    client.emit('notification', announcement('other', 'here'));
    expect(relay.peerCount).toBe(1);
    expect(relay.reachesOthers).toBe(true);
    relay.send('t', 'shared');
    await turn();
    expect(sentEvents(client).filter((e) => e.topic === 't')).toEqual([
      { topic: 't', payload: 'shared' },
    ]);

    client.emit('notification', announcement('other', 'bye'));
    expect(relay.reachesOthers).toBe(false);
    relay.send('t', 'alone again');
    await turn();
    expect(sentEvents(client).filter((e) => e.topic === 't')).toEqual([
      { topic: 't', payload: 'shared' },
    ]);
    expect(heard).toEqual(['alone', 'shared', 'alone again']);
    await relay.close();
  });

  it("answers another process's ask with here, and says bye when it closes", async () => {
    const client = new FakeClient();
    const relay = await relayOn(client);
    client.emit('notification', announcement('newcomer', 'ask'));
    expect(relay.peerCount).toBe(1);
    await turn();
    expect(sentEvents(client)).toEqual([
      { topic: PEER_TOPIC, payload: 'ask' },
      { topic: PEER_TOPIC, payload: 'here' },
    ]);
    await relay.close();
    expect(client.queries.at(-1)?.values[1]).toBe(`tw2\n${relay.origin}\n${PEER_TOPIC}\n3\nbye`);
  });

  it('forgets a peer not heard from for 35 s', async () => {
    const client = new FakeClient();
    const relay = await relayOn(client);
    let now = 1_000_000;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      client.emit('notification', announcement('other', 'here'));
      now += 34_000;
      expect(relay.reachesOthers).toBe(true);
      now += 2_000;
      expect(relay.reachesOthers).toBe(false);
    } finally {
      clock.mockRestore();
      await relay.close();
    }
  });

  it('a process that does not listen (a worker) cannot know who listens, so it always sends', async () => {
    const client = new FakeClient();
    const relay = await relayOn(client, false);
    expect(relay.reachesOthers).toBe(true);
    relay.send('t', 'to whoever listens');
    await turn();
    expect(sentEvents(client)).toEqual([{ topic: 't', payload: 'to whoever listens' }]);
    await relay.close();
    expect(client.queries.filter((q) => String(q.values[1]).includes('bye'))).toEqual([]);
  });
});
