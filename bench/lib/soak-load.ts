// The soak's load, sent from the bench process over keep-alive connections: success pings at a
// fixed rate spread over the kept-alive checks, and the flipping checks' pings on a schedule
// (bench/suites/soak.ts says which check flips how). A fixed rate, not as fast as the server
// answers: a soak measures what a steady day does to the server, not its ceiling.
import http from 'node:http';

export interface PingCounts {
  sent: number;
  acknowledged: number;
  failed: number;
  lastError?: string;
}

export function pinger(baseUrl: string) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const counts: PingCounts = { sent: 0, acknowledged: 0, failed: 0 };
  const inFlight = new Set<Promise<void>>();
  const fail = (why: string) => {
    counts.failed++;
    counts.lastError = why;
  };
  /** Sends one ping (GET `path`) and counts its answer. */
  const ping = (path: string) => {
    counts.sent++;
    const done = new Promise<void>((resolve) => {
      const req = http.get({ host: url.hostname, port: url.port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) counts.acknowledged++;
          else fail(`${path} answered ${res.statusCode}`);
          resolve();
        });
      });
      req.on('error', (err) => {
        fail(err.message);
        resolve();
      });
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  return {
    counts,
    ping,
    /** Waits for every answer still due, then closes the connections. */
    async drain() {
      while (inFlight.size) await Promise.all([...inFlight]);
      agent.destroy();
    },
  };
}

/** Calls `tick(elapsedMs)` every `everyMs` until stopped; returns the stop function. */
export function every(everyMs: number, tick: (elapsedMs: number) => void): () => void {
  const started = performance.now();
  const timer = setInterval(() => tick(performance.now() - started), everyMs);
  return () => clearInterval(timer);
}

/** Spreads `perSecond` pings over `codes`, round-robin, in ticks of 50 ms (a fractional remainder carries over). */
export function steadyPings(p: ReturnType<typeof pinger>, codes: string[], perSecond: number): () => void {
  let next = 0;
  let sentSoFar = 0;
  return every(50, (elapsed) => {
    const due = (elapsed / 1000) * perSecond;
    for (; sentSoFar < Math.floor(due); sentSoFar++) p.ping(`/ping/${codes[next++ % codes.length]}`);
  });
}
