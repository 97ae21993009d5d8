/**
 * What every answer must keep, and the figures the run prints. An answer is judged against the
 * request that produced it: text the caller sent and gets back (an unknown entity name echoed in an
 * error) is not an internal.
 */
import type { HostileRequest, HostileResponse } from './client';
import { xmlProblem } from './xml-check';

export interface Figures {
  requests: number;
  serverErrors: number;
  internals: number;
  offEnvelope: number;
  badXml: number;
  writesOverGet: number;
  slowestMs: number;
  slowest: string;
  bypassAttempts: number;
  bypasses: number;
  leaks: number;
  integrity: number;
  transportErrors: number;
}

export function newFigures(): Figures {
  return {
    requests: 0,
    serverErrors: 0,
    internals: 0,
    offEnvelope: 0,
    badXml: 0,
    writesOverGet: 0,
    slowestMs: 0,
    slowest: '',
    bypassAttempts: 0,
    bypasses: 0,
    leaks: 0,
    integrity: 0,
    transportErrors: 0,
  };
}

export interface Finding {
  kind: string;
  request: string;
  detail: string;
}

/** Signs of internals in an answer: stack frames, SQL, file paths, library names, JS error names. */
const INTERNALS: RegExp[] = [
  /\bat (?:async )?[\w$.<>[\]]+ \((?:file:|node:|\/)/,
  /\bat (?:file:\/\/|node:internal|\/)[^\s)]*:\d+:\d+/,
  /node_modules/,
  /\/work\/|\/home\/|\/usr\/lib\/|\/tmp\//,
  /\.[cm]?[jt]s:\d+(?::\d+)?/,
  /\bknex\b/i,
  /\bselect\s+[\w"*.,() ]{1,200}\s+from\s+"?[a-z_]+"?/i,
  /\bdelete\s+from\s+"?[a-z_]+"?/i,
  /\bupdate\s+"?[a-z_]+"?\s+set\s/i,
  /\binsert into\b/i,
  /syntax error at or near/i,
  /\b(?:TypeError|ReferenceError|RangeError|SyntaxError): /,
  /Maximum call stack/i,
  /\bECONN(?:REFUSED|RESET)\b/,
  /\bpglite\.(?:js|wasm)|@electric-sql/i,
];

export function describe(req: HostileRequest): string {
  const body =
    req.body === undefined
      ? ''
      : ` body=${JSON.stringify((Buffer.isBuffer(req.body) ? req.body.toString('latin1') : req.body).slice(0, 160))}`;
  return `[${req.label}] ${req.method} ${req.path.slice(0, 200)}${req.path.length > 200 ? '…' : ''}${body}`;
}

/** Percent-decodes each run of escapes on its own; a run that is not valid UTF-8 stays as sent. */
function tolerantDecode(text: string): string {
  return text.replace(/\+/g, ' ').replace(/(%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

function requestText(req: HostileRequest): string {
  // Decoded run by run, so one invalid escape (a lone surrogate) does not hide the rest of what was sent.
  let text = req.path + '\n' + tolerantDecode(req.path);
  for (const [name, value] of req.headers ?? []) text += `\n${name}: ${value}`;
  if (req.body !== undefined) {
    const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : req.body;
    text += '\n' + body + '\n' + tolerantDecode(body);
  }
  return text;
}

function internalsIn(text: string, sent: string): string | undefined {
  for (const re of INTERNALS) {
    const m = re.exec(text);
    if (m && !sent.includes(m[0])) return m[0];
  }
  return undefined;
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** AuthX's exact refusal (`HTTP 401 …`, text/plain): the spec's own answer on every AuthX route. */
function authxRefusal(res: HostileResponse): boolean {
  return /^text\/plain/.test(String(res.headers['content-type'])) && /^HTTP 40[13] /.test(res.text);
}

/** Whether the answer is in the envelope its binding promises. Returns the problem, if any. */
function envelopeProblem(req: HostileRequest, res: HostileResponse): string | undefined {
  const type = String(res.headers['content-type'] ?? '');
  if (res.status === 204 || res.status === 304 || req.method === 'HEAD') return undefined;
  // Node's HTTP parser refuses what is not HTTP (an unknown method, a bad header) before any route runs.
  if ((res.status === 400 || res.status === 431) && type === '' && res.body.length === 0) return undefined;
  // No route at all for the path: the host's answer, not a binding's.
  if (res.status === 404 && /"No route for /.test(res.text)) return undefined;
  switch (req.binding) {
    case 'api3':
    case 'api3wp': {
      if (authxRefusal(res)) return undefined;
      if (/xml/.test(type)) return undefined; // judged by the XML check
      if (!/json|javascript/.test(type)) return `content-type ${type} (status ${res.status})`;
      const body = json(res.text);
      if (body === undefined) return 'JSON that does not parse';
      if (res.status >= 400) {
        if (isObj(body) && (body.is_error === 1 || (req.binding === 'api3wp' && typeof body.code === 'string')))
          return undefined;
        return `status ${res.status} without an APIv3 error envelope`;
      }
      if (isObj(body) && 'error' in body && isObj(body.error) && !('is_error' in body))
        return 'generic {"error":…} body';
      return undefined;
    }
    case 'api4': {
      if (authxRefusal(res)) return undefined;
      // legacy-keys' refusal is the reference's FATAL JSON (text/javascript) on every route it serves.
      if (!/json|javascript/.test(type)) return `content-type ${type} (status ${res.status})`;
      const body = json(res.text);
      if (body === undefined) return 'JSON that does not parse';
      if (res.status >= 400) {
        if (isObj(body) && 'error_message' in body) return undefined;
        // The multi-call end-point: one answer per call key, the failing ones in the error shape.
        if (isObj(body) && Object.values(body).every((x) => isObj(x) && ('error_message' in x || 'values' in x)))
          return undefined;
        return `status ${res.status} without the APIv4 error shape`;
      }
      if (isObj(body) && 'error' in body && isObj(body.error)) return 'generic {"error":…} body';
      return undefined;
    }
    case 'authx': {
      if (authxRefusal(res)) return undefined;
      if (res.status >= 400 && !/json|text\/plain/.test(type)) return `content-type ${type}`;
      return undefined;
    }
    case 'page':
    case 'oauth': {
      if (res.status >= 300 && res.status < 400) return undefined;
      if (res.status >= 400 && !/html|json|text\/plain/.test(type)) return `content-type ${type}`;
      return undefined;
    }
    default:
      return undefined;
  }
}

export class Judge {
  readonly figures = newFigures();
  readonly findings: Finding[] = [];
  /** Answers kept for the leak pass (text and the request that produced it). */
  readonly answers: Array<{ sent: string; text: string; label: string }> = [];
  /**
   * Slowest answer that checked a password (scrypt, deliberately costly: its time is a security setting and
   * grows with the machine's load): judged on its own, looser bound, not in the slowest figure.
   */
  slowestPassword = 0;

  private note(kind: string, req: HostileRequest, detail: string) {
    if (this.findings.filter((f) => f.kind === kind).length < 25)
      this.findings.push({ kind, request: describe(req), detail });
  }

  judge(req: HostileRequest, res: HostileResponse): void {
    const figures = this.figures;
    figures.requests++;
    const sent = requestText(req);
    this.answers.push({
      sent,
      text: res.text.length > 200_000 ? res.text.slice(0, 200_000) : res.text,
      label: req.label,
    });
    const password =
      (req.method === 'POST' && req.path.startsWith('/crm/login')) ||
      (req.headers ?? []).some(([k, v]) => /^authorization$/i.test(k) && /^basic /i.test(v));
    if (password) this.slowestPassword = Math.max(this.slowestPassword, res.ms);
    else if (res.ms > figures.slowestMs) {
      figures.slowestMs = res.ms;
      figures.slowest = describe(req);
    }
    if (res.status >= 500) {
      figures.serverErrors++;
      this.note('5xx', req, `${res.status} ${res.text.slice(0, 300)}`);
    }
    const leaked = internalsIn(res.text, sent) ?? internalsIn(JSON.stringify(res.headers), sent);
    if (leaked) {
      figures.internals++;
      this.note('internals', req, `${JSON.stringify(leaked)} in ${res.text.slice(0, 300)}`);
    }
    const env = envelopeProblem(req, res);
    if (env) {
      figures.offEnvelope++;
      this.note('off-envelope', req, `${env}: ${res.text.slice(0, 200)}`);
    }
    if (/xml/.test(String(res.headers['content-type'] ?? '')) && req.method !== 'HEAD') {
      const problem = xmlProblem(res.text);
      if (problem) {
        figures.badXml++;
        this.note('bad XML', req, `${problem}: ${res.text.slice(0, 300)}`);
      }
    }
  }

  transportError(req: HostileRequest, err: unknown): void {
    this.figures.requests++;
    this.figures.transportErrors++;
    this.note('transport', req, String((err as Error).message ?? err));
  }

  finding(kind: string, req: HostileRequest, detail: string): void {
    this.note(kind, req, detail);
  }
}
