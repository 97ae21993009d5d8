/**
 * Measuring: one autocannon load of a scenario, the service's query counter, the rounds of a scenario
 * summarised into a result row (means; p99 the worst round), and the results table.
 */
import autocannon from 'autocannon';
import type { Scenario } from './scenarios';

export interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
}
export interface Row {
  scenario: string;
  crm: Measure;
  baseline: Measure;
  ratio: number;
  queriesPerRequest: number;
  /** The service's peak RSS so far (MB), read after this scenario. */ peakRssMb?: number;
  /** PostgreSQL alone on the baseline page's statement (pgbench, prepared, same connections and seconds). */
  pgbench?: { rps: number; clients: number; seconds: number };
}

/** One round of a scenario: the service's and the baseline's measures, and queries per request. */
export interface Round {
  crm: Measure;
  baseline: Measure;
  q: number;
}

export async function load(
  connections: number,
  url: string,
  scenario: Pick<Scenario, 'method' | 'path' | 'headers' | 'body'>,
  seconds: number,
): Promise<Measure> {
  const result = await autocannon({
    url: url + scenario.path,
    method: scenario.method,
    headers: scenario.headers,
    body: scenario.body,
    connections,
    duration: seconds,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}

export async function queries(url: string): Promise<number> {
  return ((await (await fetch(`${url}/__bench/stats`)).json()) as { queries: number }).queries;
}

/** The rounds of one scenario as a result row: mean measures, the worst p99, the ratio to the baseline. */
export function summarise(scenario: string, runs: Round[]): Row {
  const pick = (k: keyof Measure, side: 'crm' | 'baseline') => runs.reduce((a, r) => a + r[side][k], 0) / runs.length;
  const measure = (side: 'crm' | 'baseline'): Measure => ({
    rps: pick('rps', side),
    p50: pick('p50', side),
    p99: Math.max(...runs.map((r) => r[side].p99)),
    errors: pick('errors', side),
    non2xx: pick('non2xx', side),
    requests: pick('requests', side),
  });
  const row: Row = {
    scenario,
    crm: measure('crm'),
    baseline: measure('baseline'),
    ratio: 0,
    queriesPerRequest: runs.reduce((a, r) => a + r.q, 0) / runs.length,
  };
  row.ratio = row.crm.rps / row.baseline.rps;
  return row;
}

export function table(rows: Row[], peak: number, baselinePeak: number): string {
  const head =
    '| Scenario | req/s | baseline req/s | ratio | p50 ms | p99 ms | baseline p50 / p99 ms | queries/request |\n' +
    '|---|---|---|---|---|---|---|---|';
  const lines = rows.map(
    (r) =>
      `| ${r.scenario} | ${r.crm.rps.toFixed(0)} | ${r.baseline.rps.toFixed(0)} | ${(r.ratio * 100).toFixed(0)}% ` +
      `| ${r.crm.p50} | ${r.crm.p99} | ${r.baseline.p50} / ${r.baseline.p99} | ${r.queriesPerRequest.toFixed(2)} |`,
  );
  const alone = rows.flatMap((r) =>
    r.pgbench
      ? [
          `PostgreSQL alone on the page of ${r.scenario} (pgbench -M prepared, ${r.pgbench.clients} clients, ` +
            `${r.pgbench.seconds} s): ${r.pgbench.rps.toFixed(0)} statements/s; the service answered ` +
            `${pct(r.crm.rps / r.pgbench.rps)} of that, the bare baseline ${pct(r.baseline.rps / r.pgbench.rps)}.`,
        ]
      : [],
  );
  const notes = alone.length ? `\n\n${alone.join('\n')}` : '';
  return `${head}\n${lines.join('\n')}${notes}\n\nPeak RSS of the service: ${peak} MB (bare baseline: ${baselinePeak} MB)`;
}

const pct = (ratio: number) => `${(ratio * 100).toFixed(0)}%`;
