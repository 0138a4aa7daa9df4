// The load balancer of bench/cluster, inside the client: it probes each node's `/api/ready`
// and sends new requests round-robin to the nodes that answered 200; a request whose
// connection fails (refused, reset, cut before the reply, no reply in time) goes to the other
// node with the same Idempotency-Key, so one that did reach the first node is replayed there,
// never applied twice.

/** How often each node's readiness is probed; one 503 (or no answer) takes it out of rotation. */
const PROBE_EVERY_MS = 200;
const PROBE_TIMEOUT_MS = 1_000;
/** One attempt's wait for its reply; past it the request is sent to the other node. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/**
 * Attempts per request, alternating the nodes, the third and later after a growing pause
 * (100 ms, doubling): about 6 s in all. A request no node answered by then is lost.
 */
const MAX_ATTEMPTS = 8;

export interface Answer {
  status: number;
  code: number;
  message: string;
  data: unknown;
  /** The node that answered. */
  node: number;
  attempts: number;
  /** When the attempt that was answered was sent, and when its reply came (performance.now()). */
  sentAtMs: number;
  answeredAtMs: number;
}

export interface Request {
  path: string;
  token: string;
  body: unknown;
  key: string;
}

/**
 * What failed, as `<step>:<code>`: `connect:ECONNREFUSED` (nothing listens),
 * `connect:ECONNRESET` (a connection still queued on a listener that closed), failures on an
 * open connection (`UND_ERR_SOCKET`: closed by the other side), `TimeoutError`, or the
 * status of a gateway-like reply (`http:503`). fetch wraps the socket's error in `cause`.
 */
function failureOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; syscall?: string } }).cause;
  const code =
    cause?.code ?? (error instanceof Error ? error.name || error.message : String(error));
  return cause?.syscall ? `${cause.syscall}:${code}` : code;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Balancer {
  /** What the last probe of each node said. */
  readonly ready: boolean[];
  /** Every change of a node's readiness as the probes saw it. */
  readonly changes: { node: number; atMs: number; ready: boolean }[] = [];
  /** Failed attempts by kind; each was sent again. */
  readonly failures = new Map<string, number>();
  private turn = 0;
  private probing = false;
  private probes: Promise<void>[] = [];

  constructor(readonly nodes: string[]) {
    this.ready = nodes.map(() => false);
  }

  startProbes(): void {
    this.probing = true;
    this.probes = this.nodes.map(async (baseUrl, node) => {
      while (this.probing) {
        const ready = await fetch(`${baseUrl}/api/ready`, {
          signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
        }).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ready !== this.ready[node]) {
          this.ready[node] = ready;
          this.changes.push({ node, atMs: performance.now(), ready });
        }
        await sleep(PROBE_EVERY_MS);
      }
    });
  }

  async stopProbes(): Promise<void> {
    this.probing = false;
    await Promise.all(this.probes);
  }

  /** Resolves once the probes have seen the node ready. */
  async waitReady(node: number): Promise<void> {
    while (!this.ready[node]) await sleep(50);
  }

  /** The next ready node in turn; with none ready, the next in turn anyway (there is nowhere better). */
  pick(): number {
    for (let i = 0; i < this.nodes.length; i++) {
      const node = this.turn++ % this.nodes.length;
      if (this.ready[node]) return node;
    }
    return this.turn++ % this.nodes.length;
  }

  /** POSTs the request; null when no attempt got a reply (the request is lost). */
  async post(request: Request): Promise<Answer | null> {
    let node = this.pick();
    let last: Answer | null = null;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      if (attempt > 1) node = (node + 1) % this.nodes.length;
      if (attempt > 2) await sleep(100 * 2 ** (attempt - 3));
      const sentAtMs = performance.now();
      try {
        const response = await fetch(`${this.nodes[node]}${request.path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${request.token}`,
            'idempotency-key': request.key,
          },
          body: JSON.stringify(request.body),
          signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        });
        const text = await response.text();
        const answeredAtMs = performance.now();
        // A gateway-like status may come from a node on its way out, not from the route: try the
        // other node, keeping the reply in case every node says the same.
        if (response.status === 502 || response.status === 503 || response.status === 504) {
          this.count(`http:${response.status}`);
          last = parsed(text, response.status, node, attempt, sentAtMs, answeredAtMs);
          continue;
        }
        return parsed(text, response.status, node, attempt, sentAtMs, answeredAtMs);
      } catch (error) {
        this.count(failureOf(error));
      }
    }
    return last;
  }

  private count(failure: string): void {
    this.failures.set(failure, (this.failures.get(failure) ?? 0) + 1);
  }
}

function parsed(
  text: string,
  status: number,
  node: number,
  attempts: number,
  sentAtMs: number,
  answeredAtMs: number,
): Answer {
  let envelope: { code?: number; message?: string; data?: unknown };
  try {
    envelope = JSON.parse(text);
  } catch {
    envelope = { code: status, message: text.slice(0, 120) };
  }
  return {
    status,
    code: envelope.code ?? status,
    message: envelope.message ?? '',
    data: envelope.data,
    node,
    attempts,
    sentAtMs,
    answeredAtMs,
  };
}
