/** The benchmark's child processes: starting a server, waiting until it is healthy, free ports, peak memory. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export async function waitHealthy(url: string, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not become healthy`);
}

export function start(root: string, name: string, cmd: string[], env: Record<string, string>, port: number) {
  const child = spawn(process.execPath, cmd, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { name, child, url: `http://127.0.0.1:${port}` };
}

/** A port nobody listens on now, so two runs on one machine do not load each other's servers. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as { port: number };
        srv.close(() => resolve(port));
      });
  });
}

/** Peak resident memory of a process, from the kernel's own bookkeeping (VmHWM). */
export function peakRssMb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : NaN;
  } catch {
    return NaN; // the process is gone (its exit is reported on its own)
  }
}
