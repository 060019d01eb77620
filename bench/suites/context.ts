import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface BenchContext {
  /** Small sizes and short runs: keeps the benchmarks working in CI, proves no figure. */
  smoke: boolean;
  /** A fresh SQLite database URL under this run's scratch folder. */
  databaseUrl(name: string): string;
  /** A path under this run's scratch folder. */
  file(name: string): string;
  cleanup(): void;
}

export function createContext(smoke: boolean): BenchContext {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-'));
  return {
    smoke,
    databaseUrl: (name) => `file:${path.join(dir, `${name}.db`)}`,
    file: (name) => path.join(dir, name),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
