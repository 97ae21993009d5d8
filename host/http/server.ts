/** Listening and graceful shutdown: in-flight requests finish, then plugins close and pools end. */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KernelError, type Kernel } from '../../kernel';
import { httpListening } from '../hooks';
import { createApp } from './app';

export interface RunningServer {
  server: Server;
  url: string;
  stop(): Promise<void>;
}

export async function startServer(kernel: Kernel): Promise<RunningServer> {
  const app = await createApp(kernel);
  const { host, port, shutdownTimeoutMs } = kernel.config.server;
  const server = app.listen({ host, port });
  // limits.requestTimeoutMs: a client that trickles its request in is cut off (408).
  server.requestTimeout = kernel.config.limits.requestTimeoutMs;
  server.headersTimeout = Math.min(server.headersTimeout, kernel.config.limits.requestTimeoutMs);
  try {
    await once(server, 'listening');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? `port ${port} on ${host} is already in use`
        : code === 'EACCES'
          ? `no permission to listen on ${host}:${port}`
          : (err as Error).message;
    throw new KernelError('E_BOOT', `Cannot listen: ${why}`, { cause: err });
  }
  const addr = server.address() as AddressInfo;
  const url = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
  // Responses still being built when shutdown starts are told to close their connection, so a
  // keep-alive client does not hold the process open until its idle timeout.
  const active = new Set<import('node:http').ServerResponse>();
  server.on('request', (_req, res) => {
    active.add(res);
    res.on('close', () => active.delete(res));
  });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      for (const res of active) if (!res.headersSent) res.setHeader('Connection', 'close');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), shutdownTimeoutMs);
      await closed;
      clearTimeout(timer);
      await kernel.close();
    })());
  try {
    await kernel.hooks.run(httpListening, { url: kernel.config.server.publicUrl ?? url });
  } catch (err) {
    await stop();
    throw err;
  }
  return { server, url, stop };
}
