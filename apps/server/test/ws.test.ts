import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type TestApp, createTestApp, registerUser } from './harness.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
});
afterAll(() => t.close());

function open(): Promise<{ socket: WebSocket; next: () => Promise<Record<string, unknown>> }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const queue: Record<string, unknown>[] = [];
    const waiters: ((m: Record<string, unknown>) => void)[] = [];
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      const waiter = waiters.shift();
      if (waiter) waiter(message);
      else queue.push(message);
    });
    socket.on('open', () =>
      resolve({ socket, next: () => new Promise((r) => (queue.length ? r(queue.shift() as Record<string, unknown>) : waiters.push(r))) }),
    );
    socket.on('error', reject);
  });
}

describe('/ws', () => {
  it('answers ping, authenticates, and delivers to the user channel only after auth', async () => {
    const { token, uid } = await registerUser(t.app);
    const { socket, next } = await open();
    socket.send(JSON.stringify({ op: 'ping', id: 1 }));
    expect(await next()).toEqual({ op: 'pong', id: 1 });

    expect(t.app.services.hub.publishToUser(Number(uid), { type: 'test' })).toBe(0);
    socket.send(JSON.stringify({ op: 'auth', token, id: 2 }));
    expect(await next()).toEqual({ op: 'auth', id: 2, ok: true });
    expect(t.app.services.hub.publishToUser(Number(uid), { type: 'balance' })).toBe(1);
    expect(await next()).toEqual({ channel: `user.${uid}`, data: { type: 'balance' } });
    socket.close();
  });

  it('refuses a bad token, unknown channels, user channels by name, and bad JSON', async () => {
    const { uid } = await registerUser(t.app);
    const { socket, next } = await open();
    socket.send(JSON.stringify({ op: 'auth', token: 'A'.repeat(43) }));
    expect(await next()).toMatchObject({ op: 'auth', ok: false });
    socket.send(JSON.stringify({ op: 'subscribe', channel: `user.${uid}` }));
    expect(await next()).toMatchObject({ op: 'error', error: 'unknown_channel' });
    socket.send(JSON.stringify({ op: 'subscribe', channel: 'ticker.NOPE' }));
    expect(await next()).toMatchObject({ op: 'error', error: 'unknown_channel' });
    socket.send('{not json');
    expect(await next()).toMatchObject({ op: 'error', error: 'bad_json' });
    socket.close();
  });
});
