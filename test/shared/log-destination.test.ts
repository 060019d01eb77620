// The log destination's bound: a process writing far more than its buffer to a stdout pipe
// nobody reads drops lines instead of growing, counts them, and once the reader comes back
// says how many were lost. A real child process and a real pipe.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const module = path.resolve(import.meta.dirname, '../../src/shared/log-destination.ts');
const writer = `
import { createLogDestination } from ${JSON.stringify(module)};
const d = createLogDestination(1, 64 * 1024);
const line = JSON.stringify({ level: 30, msg: 'x'.repeat(200) }) + '\\n';
for (let i = 0; i < 20000; i++) d.stream.write(line);
process.stderr.write(JSON.stringify({ dropped: d.dropped(), heapMB: Math.round(process.memoryUsage().heapUsed / 1e6) }) + '\\n');
process.stdin.once('data', async () => { await d.flushWithin(5000); process.exit(0); });
`;

it('drops and counts what the buffer cannot hold while stdout is not read, then reports the loss', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', writer], { stdio: ['pipe', 'pipe', 'pipe'] });
  // Not read yet: the pipe fills, then the 64 KiB buffer, then lines are dropped.
  child.stdout.pause();
  const report = await new Promise<{ dropped: number; heapMB: number }>((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const line = err.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  // About 4 MB written; at most the pipe and the buffer kept.
  expect(report.dropped).toBeGreaterThan(15000);

  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => {
    child.once('exit', resolve);
    child.stdin.write('go\n');
  });
  expect(code).toBe(0);
  const lost = out.split('\n').filter((l) => l.includes('log lines dropped')).map((l) => JSON.parse(l) as { dropped: number });
  expect(lost).toHaveLength(1);
  expect(lost[0]!.dropped).toBe(report.dropped);
}, 30_000);
