// Runs the operator CLI as users do (`bin/gateway.mjs`) with the given environment.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(env: NodeJS.ProcessEnv, args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['bin/gateway.mjs', ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as CliResult;
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}
