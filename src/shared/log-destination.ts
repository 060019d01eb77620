// Where the server's log lines go: standard output, written asynchronously with a bounded
// buffer. pino's default destination writes synchronously and, for asynchronous ones, flushes
// synchronously at exit; with stdout a pipe nobody reads (a parent that went away, a stalled
// collector) the buffer grew without end and the exit flush spun forever, so SIGTERM never
// finished. Here a full buffer drops lines (counted, and said once the reader is back) and
// shutdown waits for the flush only so long.
import SonicBoomModule, { type SonicBoom } from 'sonic-boom';

// The package is CommonJS: its class is the default export at run time (the types say both).
const SonicBoomClass = SonicBoomModule as unknown as typeof SonicBoom;

/** Bytes of log lines held while the reader is slow; past it, lines are dropped. */
export const LOG_BUFFER_BYTES = 4 * 1024 * 1024;
/** How long shutdown waits for buffered lines to reach the reader. */
export const LOG_FLUSH_MS = 2000;

export interface LogDestination {
  stream: SonicBoom;
  /** Lines dropped so far because the buffer was full. */
  dropped(): number;
  /** Writes what is buffered, waiting at most `ms`; never throws, never hangs. */
  flushWithin(ms?: number): Promise<void>;
}

export function createLogDestination(fd = 1, maxBytes = LOG_BUFFER_BYTES): LogDestination {
  const stream = new SonicBoomClass({ fd, sync: false, minLength: 0, maxLength: maxBytes });
  let dropped = 0;
  let reported = 0;
  stream.on('drop', () => {
    dropped++;
  });
  // A broken pipe (the reader exited) must not crash the server: lines have nowhere to go.
  stream.on('error', () => {
    dropped++;
  });
  // Once the reader catches up, one line says how many were lost meanwhile.
  stream.on('drain', () => {
    if (dropped === reported) return;
    const lost = dropped - reported;
    reported = dropped;
    stream.write(`${JSON.stringify({ level: 40, time: Date.now(), msg: 'log lines dropped while the log reader was not reading', dropped: lost })}\n`);
  });
  return {
    stream,
    dropped: () => dropped,
    flushWithin(ms = LOG_FLUSH_MS) {
      // sonic-boom's flush() answers at once without a minimum length; 'drain' says the buffer is
      // written. Its own counters tell whether anything is waiting (no public accessor).
      const state = stream as unknown as { _len: number; _writing: boolean };
      if (!state._writing && state._len === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          stream.off('drain', done);
          resolve();
        };
        // Kept referenced: shutdown awaits this, and a bounded wait must run to its end.
        const timer = setTimeout(done, ms);
        stream.on('drain', done);
      });
    },
  };
}
