// `gateway`: the operator CLI on this process's arguments, streams and environment (run.ts).
import { runCli } from './run.ts';

process.exitCode = await runCli(process.argv.slice(2), { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
