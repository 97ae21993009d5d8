/**
 * Tells every instance that cached data changed (option lists, the OAuth provider list…). A change
 * is announced with `pg_notify` from inside the writing transaction, so PostgreSQL delivers it to
 * every instance's listener — the announcing one included — only when the write commits, and never
 * for a rolled-back write. Local subscribers also hear it at once. The embedded database serves one
 * process (the CLI cannot open it while a server runs), so local delivery is all it needs.
 */
import pg from 'pg';
import type { Knex } from 'knex';
import type { Logger } from '../../kernel';

export class ChangeBus {
  private client?: pg.Client;
  /** Send notifications through the database without listening (a CLI attached to a running embedded server). */
  private sends = false;
  private closing = false;
  private readonly subscribers = new Map<string, Array<() => void>>();

  constructor(
    private readonly channel: string,
    private readonly log: Logger,
  ) {}

  /** Runs `fn` whenever `topic` changes here or on another instance. */
  on(topic: string, fn: () => void): void {
    this.subscribers.set(topic, [...(this.subscribers.get(topic) ?? []), fn]);
  }

  /** Every topic something here listens to (System.flush announces them all). */
  topics(): string[] {
    return [...this.subscribers.keys()];
  }

  /** Announces a change; call it with the writing transaction when there is one. */
  async announce(db: Knex, topic: string): Promise<void> {
    this.deliver(topic);
    if (this.client || this.sends) await db.raw('select pg_notify(?, ?)', [this.channel, topic]);
  }

  /**
   * Tells every instance listening on PostgreSQL (this one included) once the writing transaction commits,
   * without delivering here at once: for changes whose local reload must read the committed rows.
   */
  async notify(db: Knex, topic: string): Promise<void> {
    if (this.client || this.sends) await db.raw('select pg_notify(?, ?)', [this.channel, topic]);
  }

  /** A CLI process attached to a running embedded server: its changes reach the server as notifications. */
  sendThroughDatabase(): void {
    this.sends = true;
  }

  /**
   * The embedded engine is one session: it LISTENs so that the NOTIFY of a CLI statement run through the
   * server's socket is written into that statement's answer, where `subscribe` (the host's socket) finds it.
   * This process's own announcements are delivered locally already.
   */
  async listenEmbedded(db: Knex, subscribe: (fn: (channel: string, topic: string) => void) => void): Promise<void> {
    await db.raw(`LISTEN "${this.channel}"`);
    subscribe((channel, topic) => {
      if (channel === this.channel) this.deliver(topic);
    });
  }

  /** Starts listening (PostgreSQL only); reconnects after a lost connection, assuming everything changed meanwhile. */
  async listen(url: string): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (msg) => this.deliver(msg.payload ?? ''));
    client.on('error', (err) => {
      this.log.warn({ err: err.message }, 'change listener lost its connection; reconnecting');
      for (const topic of this.subscribers.keys()) this.deliver(topic);
      client.end().catch(() => undefined);
      if (!this.closing) setTimeout(() => void this.listen(url).catch(() => undefined), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN "${this.channel}"`);
    this.client = client;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.client?.end().catch(() => undefined);
  }

  private deliver(topic: string): void {
    for (const fn of this.subscribers.get(topic) ?? []) fn();
  }
}
