// Runs SQLite WAL checkpoints on its own thread and connection, so the copy of committed pages
// into the database file, and its fsync, never stall the server's event loop. Plain JavaScript:
// a worker does not inherit the TypeScript loader everywhere (vitest's forks, for one).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, intervalMs } = workerData;
const db = new Database(file, { timeout: 5000 });
// PASSIVE never waits for readers or writers; frames it cannot copy yet wait for the next run.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    checkpoint.get();
  } catch (err) {
    parentPort.postMessage({ error: String(err) });
  }
}, intervalMs);

parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
