import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { AuthContext } from './http.ts';

const MAX_SUBSCRIPTIONS_PER_SOCKET = 64;
const MAX_MESSAGE_BYTES = 4096;
const CHANNEL_PATTERN = /^[a-z]+(\.[A-Za-z0-9_]+){1,3}$/;

interface Client {
  socket: WebSocket;
  channels: Set<string>;
  auth: AuthContext | null;
}

/**
 * Channels clients may subscribe to by name; `user.<uid>` is joined by authenticating,
 * never by subscribing. Later modules add their public channels (ticker.*, kline.*).
 */
export type ChannelGuard = (channel: string) => boolean;

/**
 * Real-time fan-out: a broadcast is serialised once and the same buffer goes to every
 * subscriber of the channel (as a text frame).
 */
export class Hub {
  private readonly subscribers = new Map<string, Set<Client>>();
  private readonly guards: ChannelGuard[] = [];

  allow(guard: ChannelGuard): void {
    this.guards.push(guard);
  }

  publish(channel: string, data: unknown): number {
    const clients = this.subscribers.get(channel);
    if (!clients || clients.size === 0) return 0;
    // One buffer for everyone: a string would be measured and encoded again for each socket.
    const message = Buffer.from(JSON.stringify({ channel, data }));
    for (const client of clients) client.socket.send(message, { binary: false });
    return clients.size;
  }

  publishToUser(userId: number, data: unknown): number {
    return this.publish(`user.${userId}`, data);
  }

  connectionCount(): number {
    let count = 0;
    for (const clients of this.subscribers.values()) count += clients.size;
    return count;
  }

  attach(socket: WebSocket, authenticate: (token: string) => Promise<AuthContext>): void {
    const client: Client = { socket, channels: new Set(), auth: null };
    const reply = (message: object) => socket.send(JSON.stringify(message));
    socket.on('message', async (raw, isBinary) => {
      const text = raw.toString();
      if (isBinary || text.length > MAX_MESSAGE_BYTES) return reply({ op: 'error', error: 'bad_message' });
      let message: { op?: unknown; channel?: unknown; token?: unknown; id?: unknown };
      try {
        message = JSON.parse(text);
      } catch {
        return reply({ op: 'error', error: 'bad_json' });
      }
      const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
      switch (message.op) {
        case 'ping':
          return reply({ op: 'pong', id });
        case 'auth': {
          if (typeof message.token !== 'string') return reply({ op: 'error', id, error: 'bad_token' });
          try {
            const auth = await authenticate(`Bearer ${message.token}`);
            if (client.auth) this.leave(client, `user.${client.auth.userId}`);
            client.auth = auth;
            this.join(client, `user.${auth.userId}`);
            return reply({ op: 'auth', id, ok: true });
          } catch {
            return reply({ op: 'auth', id, ok: false });
          }
        }
        case 'subscribe':
        case 'unsubscribe': {
          const channel = message.channel;
          if (typeof channel !== 'string' || !CHANNEL_PATTERN.test(channel) || channel.startsWith('user.') || !this.guards.some((g) => g(channel))) {
            return reply({ op: 'error', id, error: 'unknown_channel' });
          }
          if (message.op === 'subscribe') {
            if (client.channels.size >= MAX_SUBSCRIPTIONS_PER_SOCKET) return reply({ op: 'error', id, error: 'too_many_subscriptions' });
            this.join(client, channel);
          } else {
            this.leave(client, channel);
          }
          return reply({ op: message.op, id, channel, ok: true });
        }
        default:
          return reply({ op: 'error', id, error: 'unknown_op' });
      }
    });
    socket.on('close', () => {
      for (const channel of client.channels) this.leave(client, channel);
    });
  }

  private join(client: Client, channel: string): void {
    client.channels.add(channel);
    let clients = this.subscribers.get(channel);
    if (!clients) this.subscribers.set(channel, (clients = new Set()));
    clients.add(client);
  }

  private leave(client: Client, channel: string): void {
    client.channels.delete(channel);
    const clients = this.subscribers.get(channel);
    clients?.delete(client);
    if (clients?.size === 0) this.subscribers.delete(channel);
  }
}

export function registerWebSocket(app: FastifyInstance, hub: Hub): void {
  app.get('/ws', { websocket: true, schema: { hide: true } }, (socket) => {
    hub.attach(socket, app.authenticate);
  });
}
