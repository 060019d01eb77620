// Healthchecks' Shell transport runs the prepared command with os.system. Here /bin/sh -c runs
// it in a process group of its own, stdin and output discarded (they would mix into the server's
// log), with the notification timeout: Healthchecks has none, and a command that hangs would
// hold a delivery slot forever. On timeout the whole group is killed (a `sleep` under the shell
// too), before the notifier's own deadline gives up on the attempt.
import { spawn } from 'node:child_process';
import { DeliveryError, type Transport } from '../shared/transport.ts';
import { shellConf } from './config.ts';
import { prepareCommand } from './command.ts';

/** How the command ended: its exit code, or the signal that stopped it, or the timeout. */
export type CommandEnd = { code: number } | { signal: string } | { timedOut: true };

/** Runs `command` with `/bin/sh -c`, the server's environment plus `env`, at most `timeoutMs`. */
export function runCommand(command: string, env: Record<string, string>, timeoutMs: number): Promise<CommandEnd> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { env: { ...process.env, ...env }, stdio: 'ignore', detached: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        // The negative pid is the process group: the shell and whatever it started.
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone between the timer and the kill.
      }
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) resolve({ timedOut: true });
      else if (code !== null) resolve({ code });
      else resolve({ signal: signal ?? 'unknown' });
    });
  });
}

export const shellTransport: Transport = {
  async send(d) {
    if (!d.settings.shellEnabled) throw new DeliveryError('Shell commands are not enabled', true);
    const conf = shellConf(d.channel.value);
    const template = d.status === 'down' ? conf.cmdDown : conf.cmdUp;
    // A status without a command is not queued (notifies); a value edited since sends nothing.
    if (!template) return;
    const { command, env } = prepareCommand(template, d);
    let end: CommandEnd;
    try {
      end = await runCommand(command, env, d.settings.timeoutMs);
    } catch (err) {
      throw new DeliveryError(`Could not run the command: ${(err as Error).message}`);
    }
    if ('timedOut' in end) throw new DeliveryError(`Command timed out after ${d.settings.timeoutMs / 1000} s`);
    if ('signal' in end) throw new DeliveryError(`Command was killed by signal ${end.signal}`);
    // Healthchecks reports os.system's wait status (256 for exit 1); the exit code itself is meant.
    if (end.code !== 0) throw new DeliveryError(`Command returned exit code ${end.code}`);
  },
};
