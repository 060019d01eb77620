// A TCP proxy a test controls, in front of PostgreSQL or Redis: it passes bytes through, cuts
// every connection at once (as a server restart does) and refuses new ones until allowed again.
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Connections open through it now. */
  open(): number;
  /** Cuts every connection and refuses new ones (closed at once, as a stopped server's port). */
  cut(): void;
  /** Accepts connections again. */
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let refusing = false;
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
    client.pipe(upstream).pipe(client);
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
