// Background WAL checkpoints (see checkpoint-worker.mjs). The server's own connection turns
// automatic checkpoints off (tuneSqlite), so this worker is what keeps the WAL file short.
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, log: Logger, intervalMs = 1000): Checkpointer {
  const worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), { workerData: { file, intervalMs } });
  worker.on('message', (m: { error?: string }) => m.error && log.warn({ error: m.error }, 'WAL checkpoint failed'));
  worker.on('error', (err) => log.error({ err }, 'WAL checkpoint worker failed'));
  worker.unref();
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      }),
  };
}
