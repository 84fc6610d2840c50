import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListeningServer {
  url: string;
  /** Stops accepting connections and resolves when the requests in flight have finished (or the grace period ends). */
  close(): Promise<void>;
}

export interface ListenOptions {
  host: string;
  port: number;
  /** How long requests in flight (and open streams) get to finish on shutdown. */
  shutdownGraceMs?: number;
}

/** Serves a fetch handler over HTTP on Node. */
export function listen(fetch: (request: Request) => Response | Promise<Response>, options: ListenOptions): Promise<ListeningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: options.host, port: options.port }) as Server;
    server.once('error', reject);
    server.once('listening', () => {
      const address = server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({ url: `http://${host}:${address.port}`, close: () => closeGracefully(server, options.shutdownGraceMs ?? 10_000) });
    });
  });
}

function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    deadline.unref();
    server.close(() => {
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}
