// The operator CLI run in this process (src/cli/run.ts) with its own streams and environment:
// what it prints and the exit status it returns, without a ~1 s process start per command.
import { Readable, Writable } from 'node:stream';
import { runCli } from '../../src/cli/run.ts';
import type { CliResult } from '../helpers/cli.ts';

/** A stream that keeps what is written to it. */
function collector() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

/**
 * `gateway <args>` with this environment (nothing of the test process's) and `stdin` as its
 * input: a text, which then ends, or a stream the test writes to (and may leave open).
 */
export async function gatewayIn(env: NodeJS.ProcessEnv, args: string[], stdin: string | NodeJS.ReadableStream = ''): Promise<CliResult> {
  const stdout = collector();
  const stderr = collector();
  const input = typeof stdin === 'string' ? Readable.from([stdin]) : stdin;
  const code = await runCli(args, { env, stdin: input, stdout: stdout.stream, stderr: stderr.stream });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
