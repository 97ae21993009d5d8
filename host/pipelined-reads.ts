/**
 * Pipelined reads (PostgreSQL): a few connections on which the page reads of many requests share round trips.
 *
 * A kept read outside a transaction (entity-core's `runPlan`, every APIv3/APIv4 get page) is written to one of
 * these connections in pipeline mode (`pg`'s `pipeline: true`): it does not wait for the statements before it to
 * be answered, and the statements written while the event loop handles one batch of incoming requests leave in
 * one write (the socket is corked until `setImmediate`), so PostgreSQL is woken once for the batch instead of
 * once per request, and no pool connection is taken and given back per read. This is what Npgsql's multiplexing
 * and postgres.js's pipelining do. Each statement keeps its own Sync, so it runs in its own implicit
 * transaction and a failing one fails alone.
 *
 * The price is head-of-line waiting: answers come back in order, so a slow statement holds up the ones written
 * behind it, and the statements on one connection use one PostgreSQL backend (one core). So only light
 * statements come here. A statement's time on the server is read off the pipeline (from when it was sent, or
 * the answer before it came, to its own answer: PostgreSQL runs them one after the other), kept per statement
 * text as a figure that follows a faster run at once and a slower one slowly (a busy event loop delays answers,
 * it never speeds them up). A text above `lightMs` uses the pool, where statements run side by side, and is
 * tried here again a second later. (The planner's estimate was tried first: a LIMIT page over a selective filter
 * is estimated cheap and is not.) A connection whose oldest unanswered statement is older than `stallMs` takes
 * no more until it is answered. Reads in a transaction (a write's own reads, which must see its uncommitted rows)
 * never come here.
 */
import type { Knex } from 'knex';
import type { Logger } from '../kernel';

type Callback = (err: Error | null, result: unknown) => void;

/** The part of a `pg` Client used here. */
interface PgClient {
  connection: { stream: { cork(): void; uncork(): void } };
  connect(): Promise<void>;
  end(): Promise<void>;
  on(event: 'error' | 'end', listener: (err?: Error) => void): void;
  query(config: object, values: unknown[] | Callback, callback?: Callback): void;
}

/** The part of knex's `pg` client used here. */
interface KnexPgClient {
  driver: { Client: new (settings: object) => PgClient };
  connectionSettings: string | object;
  config: { pool?: { afterCreate?: (connection: unknown, done: (err: Error | null) => void) => void } };
}

export interface PipelinedReadsOptions {
  /** How many pipelined connections (each a PostgreSQL backend beside the pool's). */
  connections: number;
  /** Statements that take PostgreSQL longer than this (ms) are sent through the pool instead. */
  lightMs: number;
  /** A connection whose oldest unanswered statement is older than this (ms) takes no more statements. */
  stallMs: number;
  logger?: Logger;
}

/**
 * One pipelined connection. `sentAt`: when each unanswered statement was written, oldest first (answers come in
 * order, so an answer is the first entry's); a statement corked and not yet written counts from now.
 */
class Lane {
  readonly sentAt: number[] = [];
  /** Statements corked, waiting for the check phase's write. */
  private corked = 0;
  private lastAnswer = 0;
  dead = false;

  constructor(
    readonly client: PgClient,
    private readonly learn: (statement: string, ms: number) => void,
  ) {}

  /** `pg`'s `query(config, values, callback)` or `query(config, callback)`, for the statement named. */
  query(statement: string, config: object, values: unknown[] | Callback, callback?: Callback): void {
    const done = (typeof values === 'function' ? values : callback)!;
    if (!this.corked++) {
      // Everything written until the event loop's check phase leaves in one write.
      this.client.connection.stream.cork();
      setImmediate(() => {
        this.client.connection.stream.uncork();
        // The corked statements are the last entries: none of them can have been answered yet.
        const at = performance.now();
        for (let i = Math.max(0, this.sentAt.length - this.corked); i < this.sentAt.length; i++) this.sentAt[i] = at;
        this.corked = 0;
      });
    }
    this.sentAt.push(performance.now());
    const answered: Callback = (err, result) => {
      const now = performance.now();
      const sent = this.sentAt.shift()!;
      // The server worked on it from its write, or from the answer before it if that came later.
      if (!err) this.learn(statement, now - Math.max(sent, this.lastAnswer));
      this.lastAnswer = now;
      done(err, result);
    };
    if (typeof values === 'function') this.client.query(config, answered);
    else this.client.query(config, values, answered);
  }
}

/** What is known of a statement text's time on the server. */
interface Timing {
  ms: number;
  /** When a heavy statement may be tried here again. */
  retryAt: number;
}

/** Statement texts whose timing is kept at most (the prepared statements' own bound is 2,000). */
const MAX_TIMINGS = 5000;

export class PipelinedReads {
  private lanes: Lane[] = [];
  private opening?: Promise<void>;
  private retryAt = 0;
  private closed = false;
  private readonly timings = new Map<string, Timing>();
  /** Statements sent through pipelined connections since start. */
  sent = 0;

  constructor(
    private readonly client: KnexPgClient,
    private readonly options: PipelinedReadsOptions,
  ) {}

  /**
   * A connection to send this statement on now, as knex's client takes one (`query(config, values, callback)`);
   * undefined when the statement is heavy, none is open yet (they open on first need) or all are held up: use
   * the pool.
   */
  connection(statement: string): (Pick<Lane, 'client'> & { query: PgClient['query'] }) | undefined {
    const now = performance.now();
    const timing = this.timings.get(statement);
    if (timing && timing.ms > this.options.lightMs) {
      if (now < timing.retryAt) return undefined;
      timing.retryAt = now + 1000;
    }
    let best: Lane | undefined;
    for (const lane of this.lanes) {
      if (lane.sentAt.length && lane.sentAt[0] < now - this.options.stallMs) continue;
      if (!best || lane.sentAt.length < best.sentAt.length) best = lane;
    }
    if (!best) {
      if (this.lanes.length < this.options.connections) void this.open();
      return undefined;
    }
    this.sent++;
    const lane = best;
    return {
      client: lane.client,
      query: (config, values, callback) => lane.query(statement, config, values, callback),
    };
  }

  /** A faster run is believed at once, a slower one a twentieth at a time. */
  private learn = (statement: string, ms: number): void => {
    const timing = this.timings.get(statement);
    if (timing) timing.ms = ms < timing.ms ? ms : timing.ms * 0.95 + ms * 0.05;
    else if (this.timings.size < MAX_TIMINGS) this.timings.set(statement, { ms, retryAt: performance.now() + 1000 });
  };

  /** Opens the missing connections (once at a time; after a failure, not again for a second). */
  open(): Promise<void> {
    if (this.closed || Date.now() < this.retryAt) return Promise.resolve();
    return (this.opening ??= this.openLanes()
      .catch((err: unknown) => {
        this.retryAt = Date.now() + 1000;
        this.options.logger?.warn({ err }, 'Pipelined read connection failed to open: reads use the pool meanwhile');
      })
      .finally(() => (this.opening = undefined)));
  }

  private async openLanes(): Promise<void> {
    while (this.lanes.length < this.options.connections && !this.closed) {
      const { connectionSettings, driver, config } = this.client;
      const settings =
        typeof connectionSettings === 'string' ? { connectionString: connectionSettings } : connectionSettings;
      const client = new driver.Client({ ...settings, pipeline: true });
      const lane = new Lane(client, this.learn);
      // A connection that fails or ends is dropped (its unanswered statements fail with the driver's error);
      // the next read opens another.
      const drop = (err?: Error) => {
        if (lane.dead) return;
        lane.dead = true;
        this.lanes = this.lanes.filter((l) => l !== lane);
        if (!this.closed) this.options.logger?.warn({ err }, 'Pipelined read connection lost');
      };
      client.on('error', drop);
      client.on('end', drop);
      await client.connect();
      const afterCreate = config.pool?.afterCreate;
      if (afterCreate) await new Promise<void>((ok, fail) => afterCreate(client, (err) => (err ? fail(err) : ok())));
      if (this.closed || lane.dead) {
        await client.end().catch(() => undefined);
        return;
      }
      this.lanes.push(lane);
    }
  }

  /** Ends the connections (when the database handle is closed). */
  async close(): Promise<void> {
    this.closed = true;
    await this.opening;
    const lanes = this.lanes;
    this.lanes = [];
    await Promise.all(lanes.map((lane) => lane.client.end().catch(() => undefined)));
  }
}

const byDb = new WeakMap<Knex, PipelinedReads>();

/**
 * Gives `db` (a `pg` knex handle) pipelined reads: its client's `pipelinedConnection(statement)` answers a
 * connection for an autocommit read of that statement text, or undefined (take one from the pool).
 */
export function pipelineReads(db: Knex, options: PipelinedReadsOptions): Knex {
  if (options.connections < 1) return db;
  const reads = new PipelinedReads(db.client as unknown as KnexPgClient, options);
  byDb.set(db, reads);
  (db.client as unknown as { pipelinedConnection: PipelinedReads['connection'] }).pipelinedConnection = (statement) =>
    reads.connection(statement);
  return db;
}

/** The pipelined reads of a handle, if it has them (tests, and `closeDb`). */
export function pipelinedReadsOf(db: Knex): PipelinedReads | undefined {
  return byDb.get(db);
}
