import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test receiver got. */
export interface Received {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  /** `http://127.0.0.1:{port}` + path. */
  url(path?: string): string;
  received: Received[];
  /** Waits (polling, with a deadline) until `predicate` holds for the requests so far; fails past the deadline. */
  waitFor(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver for outbound webhooks on a free loopback port. `answer` gives each request's
 * status (default 200), from the request and how many came before it on the same path.
 */
export async function startReceiver(answer: (request: Received, index: number) => number = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = { at: Date.now(), path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const index = received.filter((r) => r.path === request.path).length;
      received.push(request);
      const status = answer(request, index);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : `failing on purpose (${status})`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    waitFor: async (predicate, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met within ${timeoutMs} ms; got ${received.length} requests: ${received.map((r) => r.body.slice(0, 120)).join(' | ')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
