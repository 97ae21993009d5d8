/**
 * Keeps every instance's option cache honest. Option lists (gender, prefixes, location types…) are
 * cached per process because almost every call reads them; a write announces itself with
 * `pg_notify` inside its transaction, so PostgreSQL delivers it to every instance's listener only
 * when the write commits (a rolled-back write announces nothing). The embedded database serves one
 * process through one connection, so clearing the local cache is enough there.
 */
import pg from 'pg';
import type { Logger } from 'pino';
import type { Knex } from 'knex';

export class OptionBus {
  private client?: pg.Client;
  private closing = false;

  constructor(private readonly channel: string, private readonly onChange: () => void, private readonly log: Logger) {}

  /** Starts listening (PostgreSQL only); reconnects after a lost connection. */
  async listen(url: string, schema?: string): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', () => this.onChange());
    client.on('error', (err) => {
      this.log.warn({ err: err.message }, 'option cache listener lost its connection; reconnecting');
      this.onChange();
      client.end().catch(() => undefined);
      if (!this.closing) setTimeout(() => void this.listen(url, schema).catch(() => undefined), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN "${this.channel}"`);
    this.client = client;
  }

  /** Announces a change from inside the writing transaction. */
  async announce(db: Knex): Promise<void> {
    this.onChange();
    if (this.client) await db.raw('select pg_notify(?, ?)', [this.channel, 'options']);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.client?.end().catch(() => undefined);
  }
}
