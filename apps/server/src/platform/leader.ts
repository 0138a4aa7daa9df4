import type pg from 'pg';

/** Who may lead now; asked before each round of a job that exactly one process may run. */
export interface Leadership {
  /** True while this process holds the lock (checking the connection that holds it); tries to take it otherwise. */
  lead(): Promise<boolean>;
  /** Lets the lock go (at shutdown), so another process takes over at once. */
  release(): Promise<void>;
}

/** One process, one database (PGlite, whose data directory is locked to one process): always the leader. */
export const soleLeader: Leadership = { lead: async () => true, release: async () => undefined };

/**
 * Leadership by a PostgreSQL session advisory lock held on a connection of its own. The lock
 * lives as long as the session: when the leader dies (even by kill -9) its connection closes,
 * the server frees the lock, and the next process that asks takes it. Each `lead()` of the
 * leader runs one query on that connection, so a leader whose connection broke stops leading
 * at its next round instead of believing it still does.
 */
export class AdvisoryLeader implements Leadership {
  private client: pg.Client | null = null;
  private held = false;

  constructor(
    private readonly options: {
      connect: () => Promise<pg.Client>;
      lockId: number;
      /** Told when this process starts or stops leading. */
      onChange?: (leading: boolean) => void;
    },
  ) {}

  async lead(): Promise<boolean> {
    try {
      this.client ??= await this.connect();
      if (this.held) {
        await this.client.query('select 1');
        return true;
      }
      const result = await this.client.query<{ locked: boolean }>(
        'select pg_try_advisory_lock($1) as locked',
        [this.options.lockId],
      );
      if (result.rows[0]?.locked) this.change(true);
      return this.held;
    } catch {
      await this.drop();
      return false;
    }
  }

  async release(): Promise<void> {
    const client = this.client;
    if (client && this.held)
      await client
        .query('select pg_advisory_unlock($1)', [this.options.lockId])
        .catch(() => undefined);
    await this.drop();
  }

  private async connect(): Promise<pg.Client> {
    const client = await this.options.connect();
    // A connection the server or network drops must not throw out of an event handler.
    client.on('error', () => void this.drop());
    return client;
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (this.held) this.change(false);
    await client?.end().catch(() => undefined);
  }

  private change(leading: boolean): void {
    this.held = leading;
    this.options.onChange?.(leading);
  }
}
