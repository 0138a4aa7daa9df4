// The users' WebSockets in bench/cluster. Each signs in on its node (`{op: 'auth'}`, which
// joins its user channel) and, when the node closes it, does what the web client does
// (apps/web/src/lib/realtime.ts): waits 250–500 ms, connects through the balancer to a node
// that is ready and signs in again. Every connection is a session, so an event can be put
// down to the node that delivered it.
import WebSocket from 'ws';
import type { Balancer } from './balancer.ts';

export interface Session {
  id: number;
  uid: number;
  node: number;
  openedAtMs: number;
  /** When the node confirmed the sign-in: from then on the user channel is joined. */
  authedAtMs?: number;
  /** Unset while open; sockets the bench closes at the end stay unset. */
  closedAtMs?: number;
  closeCode?: number;
}

export interface UserEvent {
  type: string;
  order?: { id: string; deliverAt: string };
}

export type EventHandler = (session: Session, event: UserEvent, atMs: number) => void;

/** The web client's reconnect delay after a lost connection. */
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 500;

export class UserSockets {
  readonly sessions: Session[] = [];
  /** Per user, the times from a close to the next sign-in: how long each was without its channel. */
  readonly gapsMs: number[] = [];
  readonly problems: string[] = [];
  private readonly open = new Set<WebSocket>();
  private stopping = false;
  private nextId = 1;

  constructor(
    private readonly balancer: Balancer,
    private readonly onEvent: EventHandler,
  ) {}

  /** Connects the user's socket to `node` and resolves once it is signed in. */
  connect(user: { uid: number; token: string }, node: number): Promise<void> {
    return new Promise((resolve) => this.session(user, node, undefined, resolve));
  }

  /** Closes every socket without reconnecting. */
  close(): void {
    this.stopping = true;
    for (const socket of this.open) socket.terminate();
  }

  private session(
    user: { uid: number; token: string },
    node: number,
    lostAtMs: number | undefined,
    signedIn?: () => void,
  ): void {
    const url = `${this.balancer.nodes[node]?.replace('http', 'ws')}/ws`;
    const socket = new WebSocket(url);
    const session: Session = {
      id: this.nextId++,
      uid: user.uid,
      node,
      openedAtMs: performance.now(),
    };
    this.sessions.push(session);
    this.open.add(socket);
    socket.on('open', () => socket.send(JSON.stringify({ op: 'auth', token: user.token, id: 1 })));
    socket.on('message', (raw: Buffer) => {
      const atMs = performance.now();
      const message = JSON.parse(raw.toString()) as {
        op?: string;
        ok?: boolean;
        channel?: string;
        data?: UserEvent;
      };
      if (message.op === 'auth') {
        if (!message.ok) {
          this.problems.push(`user ${user.uid}: sign-in refused on node ${node}`);
          signedIn?.();
          return;
        }
        session.authedAtMs = atMs;
        if (lostAtMs !== undefined) this.gapsMs.push(atMs - lostAtMs);
        signedIn?.();
      } else if (message.channel === `user.${user.uid}` && message.data) {
        this.onEvent(session, message.data, atMs);
      }
    });
    // A connection that fails to open also closes: the close handler reconnects.
    socket.on('error', () => undefined);
    socket.on('close', (code: number) => {
      this.open.delete(socket);
      if (this.stopping) return;
      session.closedAtMs = performance.now();
      session.closeCode = code;
      // A session that signed in lost its channel now; one that never did is still the old gap.
      const lost =
        session.authedAtMs !== undefined ? session.closedAtMs : (lostAtMs ?? session.closedAtMs);
      const delay = RECONNECT_MIN_MS + Math.random() * (RECONNECT_MAX_MS - RECONNECT_MIN_MS);
      setTimeout(() => {
        if (!this.stopping) this.session(user, this.balancer.pick(), lost, signedIn);
      }, delay);
    });
  }
}
