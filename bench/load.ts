// A small HTTP load generator (keep-alive, fixed concurrency) run in its own process so the
// server under test does not share its event loop. Prints JSON: requests, errors, seconds.
import http from 'node:http';

const [, , base, pathsArg, concurrencyArg, secondsArg, method = 'GET'] = process.argv;
const paths = pathsArg!.split(',');
const concurrency = Number(concurrencyArg);
const seconds = Number(secondsArg);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const url = new URL(base!);
let done = 0;
let errors = 0;
const deadline = Date.now() + seconds * 1000;

function one(): Promise<void> {
  return new Promise((resolve) => {
    const path = paths[Math.floor(Math.random() * paths.length)]!;
    const req = http.request({ host: url.hostname, port: url.port, path, method, agent }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) done++;
        else errors++;
        resolve();
      });
    });
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end();
  });
}

async function worker() {
  while (Date.now() < deadline) await one();
}

const started = Date.now();
await Promise.all(Array.from({ length: concurrency }, worker));
const elapsed = (Date.now() - started) / 1000;
process.stdout.write(JSON.stringify({ requests: done, errors, seconds: elapsed }) + '\n');
agent.destroy();
