// A burst: `total` requests written at once over `connections` keep-alive sockets, HTTP/1.1
// pipelined, then every answer awaited. Paths come one per line from a file. Run in its own
// process; prints JSON
// { sent, ok, failed, sendMs, answerMs }.
import { readFileSync } from 'node:fs';
import net from 'node:net';

const [host, port, pathsFile, totalArg, connectionsArg] = process.argv.slice(2);
const paths = readFileSync(pathsFile!, 'utf8').split('\n').filter(Boolean);
const total = Number(totalArg);
const connections = Number(connectionsArg);
const perSocket = Math.ceil(total / connections);

let ok = 0;
let sent = 0;
const started = performance.now();
let sendMs = 0;

function connect(count: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), host!);
    let answered = 0;
    let pending = '';
    socket.setNoDelay(true);
    socket.on('connect', () => {
      const requests: string[] = [];
      for (let i = 0; i < count; i++) {
        const path = paths[(sent + i) % paths.length];
        requests.push(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: burst\r\n\r\n`);
      }
      sent += count;
      socket.write(requests.join(''), () => (sendMs = Math.max(sendMs, performance.now() - started)));
    });
    socket.on('data', (chunk) => {
      // Responses are small and fixed-length: count status lines.
      pending += chunk.toString('latin1');
      let at: number;
      while ((at = pending.indexOf('HTTP/1.1 ')) >= 0 && pending.length >= at + 12) {
        const status = Number(pending.slice(at + 9, at + 12));
        if (status === 200) ok++;
        answered++;
        pending = pending.slice(at + 12);
      }
      if (answered >= count) socket.end();
    });
    // A request without a 200 (refused, reset, unanswered) counts as failed below.
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
  });
}

const jobs: Promise<void>[] = [];
let remaining = total;
for (let c = 0; c < connections && remaining > 0; c++) {
  const count = Math.min(perSocket, remaining);
  remaining -= count;
  jobs.push(connect(count));
}
await Promise.all(jobs);
process.stdout.write(JSON.stringify({ sent, ok, failed: sent - ok, sendMs, answerMs: performance.now() - started }) + '\n');
