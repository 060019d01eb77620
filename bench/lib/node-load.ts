// The fallback load generator (see load.ts): keep-alive connections, each sending its next
// request when the previous answer arrives. Prints a LoadResult without `generator`.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { LoadOptions } from './load.ts';

// The options file load.ts wrote (a command line cannot hold 10,000 paths).
const o = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadOptions;
const url = new URL(o.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
const latencies: number[] = [];
let failures = 0;
const deadline = performance.now() + o.seconds * 1000;

function one(): Promise<void> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request(
      { host: url.hostname, port: url.port, path: o.paths[Math.floor(Math.random() * o.paths.length)], method: o.method ?? 'GET', headers: o.headers, agent },
      (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - started);
          if (!res.statusCode || res.statusCode >= 400) failures++;
          resolve();
        });
      },
    );
    req.on('error', () => {
      failures++;
      resolve();
    });
    req.end(o.body);
  });
}

const started = performance.now();
await Promise.all(Array.from({ length: o.connections }, async () => {
  while (performance.now() < deadline) await one();
}));
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
process.stdout.write(JSON.stringify({ requests: latencies.length, failures, perSecond: latencies.length / seconds, latencyMs: { p50: at(0.5), p99: at(0.99) } }) + '\n');
agent.destroy();
