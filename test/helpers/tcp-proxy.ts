// A TCP proxy a test controls, in front of PostgreSQL or Redis: it passes bytes through, cuts
// every connection at once (as a server restart does) and refuses new ones until allowed again,
// or delays every answer (a slow database: each chunk from upstream reaches the client `ms` after it came).
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Connections open through it now. */
  open(): number;
  /** Cuts every connection and refuses new ones (closed at once, as a stopped server's port). */
  cut(): void;
  /** Accepts connections again. */
  restore(): void;
  /** Holds every answer from upstream this long (0: none), in order. */
  delay(ms: number): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let refusing = false;
  let delayMs = 0;
  const server = net.createServer((client) => {
    if (refusing) return client.destroy();
    const upstream = net.connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    // Each chunk goes out at its arrival time plus the delay then in force, in arrival order.
    let sent = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      if (delayMs === 0) {
        sent = sent.then(() => void client.write(chunk));
        return;
      }
      const due = Date.now() + delayMs;
      sent = sent.then(() => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())))).then(() => void client.write(chunk));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    open: () => sockets.size / 2,
    cut() {
      refusing = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      refusing = false;
    },
    delay(ms) {
      delayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
