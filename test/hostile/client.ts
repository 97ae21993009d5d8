/**
 * A raw HTTP client: any method, any bytes, repeated headers, no normalisation (fetch would refuse
 * or rewrite much of what the generators produce). Each answer carries its duration.
 */
import http from 'node:http';

/** Which wire contract the answer must keep. */
export type Binding = 'api3' | 'api3wp' | 'api4' | 'authx' | 'page' | 'oauth' | 'other';

export interface HostileRequest {
  method: string;
  /** Path and query, already encoded (may hold anything the generator made). */
  path: string;
  headers?: Array<[string, string]>;
  body?: Buffer | string;
  binding: Binding;
  /** What the generator meant to try (shown with a finding). */
  label: string;
  /** Output expected: XML when the request asks for it (APIv3 without `json`). */
  xml?: boolean;
}

let sourceCounter = 0;

/**
 * A new loopback source address per request (127.1.1.1, 127.1.1.2, …): the login throttle counts
 * failures per address, and one blocked address would turn every later answer into the throttle's
 * 401, hiding both input bugs and bypasses behind it. The throttle has its own tests.
 */
function nextSource(): string {
  const n = sourceCounter++ % (254 * 254);
  return `127.1.${Math.floor(n / 254) + 1}.${(n % 254) + 1}`;
}

export interface HostileResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  ms: number;
}

const agent = new http.Agent({ keepAlive: false, maxSockets: 16 });

export function send(base: string, req: HostileRequest, timeoutMs = 30000): Promise<HostileResponse> {
  const url = new URL(base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);
    // Repeated names are joined, as a proxy would; Content-Length is always the body's.
    const headers: Record<string, string> = {};
    for (const [rawName, value] of req.headers ?? []) {
      const name = rawName.toLowerCase();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    if (body) headers['content-length'] = String(body.length);
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        agent,
        localAddress: nextSource(),
        headers,
        insecureHTTPParser: true,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const buf = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: buf,
            text: buf.toString('utf8'),
            ms: performance.now() - started,
          });
        });
      },
    );
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    request.on('error', reject);
    if (body) request.write(body);
    request.end();
  });
}

export function closeClient(): void {
  agent.destroy();
}

/** Runs tasks with at most `n` at once. */
export async function pool<T>(items: T[], n: number, run: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await run(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}
