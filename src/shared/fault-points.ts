// Fault injection for the tests that prove what survives a crash (issue #30): GATEWAY_FAULTS
// names points, comma-separated, at which the process kills itself with SIGKILL, as a power
// cut would. A test hook, not a setting: unset (always, outside those tests) nothing happens.
export type FaultPoint =
  /** A write's transaction has committed; its events are not yet published. */
  'after-commit';

const armed = new Set((process.env.GATEWAY_FAULTS ?? '').split(',').map((s) => s.trim()).filter(Boolean));

export function faultPoint(name: FaultPoint): void {
  if (armed.has(name)) process.kill(process.pid, 'SIGKILL');
}
