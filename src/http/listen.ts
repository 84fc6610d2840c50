import { serve, type HttpBindings } from '@hono/node-server';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListeningServer {
  url: string;
  /**
   * Stops accepting connections, ends the open event streams at once (they never finish by themselves; a browser
   * tab would hold the stop for the whole grace period), and resolves when the other requests in flight have
   * finished (or the grace period ends). Resolves with how many event streams it ended.
   */
  close(): Promise<{ endedStreams: number }>;
}

export interface ListenOptions {
  host: string;
  port: number;
  /** How long requests in flight get to finish on shutdown. */
  shutdownGraceMs?: number;
}

/** Serves a fetch handler over HTTP on Node. */
export function listen(
  fetch: (request: Request, env: HttpBindings) => Response | Promise<Response>,
  options: ListenOptions,
): Promise<ListeningServer> {
  return new Promise((resolve, reject) => {
    // The open event streams, by their Node response (the node server passes it to the handler as `outgoing`).
    const open = new Set<ServerResponse>();
    const tracked = async (request: Request, env: HttpBindings) => {
      // The bindings go on to the app: the Host rule reads the port the connection arrived on from them.
      const response = await fetch(request, env);
      const outgoing = env.outgoing;
      if (
        outgoing &&
        (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
      ) {
        open.add(outgoing);
        outgoing.once('close', () => open.delete(outgoing));
      }
      return response;
    };
    const server = serve({
      fetch: tracked as Parameters<typeof serve>[0]['fetch'],
      hostname: options.host,
      port: options.port,
    }) as Server;
    server.once('error', reject);
    server.once('listening', () => {
      const address = server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${host}:${address.port}`,
        close: () => closeGracefully(server, open, options.shutdownGraceMs ?? 10_000),
      });
    });
  });
}

function closeGracefully(
  server: Server,
  open: Set<ServerResponse>,
  graceMs: number,
): Promise<{ endedStreams: number }> {
  return new Promise((resolve) => {
    const endedStreams = open.size;
    for (const response of open) response.destroy();
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    deadline.unref();
    server.close(() => {
      clearTimeout(deadline);
      resolve({ endedStreams });
    });
    server.closeIdleConnections();
  });
}
