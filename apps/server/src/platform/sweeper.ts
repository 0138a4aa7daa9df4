import type { FastifyBaseLogger } from 'fastify';

/**
 * A periodic job: runs `round` at start, then again `intervalMs` after each round ends (never two
 * at once in this process). A failed round is logged and the next one retries. `stop` waits for
 * the round in flight, so a shutdown never cuts a transaction short. Jobs that several
 * processes may run claim their rows with SKIP LOCKED; this only paces one process.
 */
export class Sweeper {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<unknown> | null = null;
  private running = false;

  constructor(
    private readonly name: string,
    private readonly round: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly log?: Pick<FastifyBaseLogger, 'error' | 'info'>,
    /** Hears how each round ended (metrics: tradewind_job_rounds_total). */
    private readonly onRound?: (ok: boolean) => void,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.log?.info(`${this.name} started`);
    this.next();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
  }

  private next(): void {
    this.current = this.round()
      .then(
        () => this.onRound?.(true),
        (error: unknown) => {
          this.onRound?.(false);
          this.log?.error({ err: error }, `${this.name}: a round failed; retrying`);
        },
      )
      .finally(() => {
        this.current = null;
        if (this.running) this.timer = setTimeout(() => this.next(), this.intervalMs);
      });
  }
}
