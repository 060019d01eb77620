// `gateway config check`: the configuration this environment gives, as the server would take
// it, secrets hidden; or every problem with it. Its report is its result: on standard output
// whether valid or not, the exit status saying which (0 valid, 1 not), as `terraform validate`.
import type { Command } from 'commander';
import { inspectConfig, problemLine } from '../config/index.ts';
import type { CliContext } from './context.ts';

export function registerConfigCommands(program: Command, cli: CliContext) {
  const config = program.command('config').description('check the configuration (environment variables)');

  config
    .command('check')
    .description('print the effective configuration, secrets hidden (exit status 0), or every problem with it (exit status 1); warn about variables that look like misspelt settings')
    .option('--json', 'print JSON: {"valid","problems":[{"name","value","message"}],"warnings":[{"name","message","suggestion"}],"settings":{NAME:{"value","source"}}}')
    .action((opts: { json?: boolean }) => {
      const report = inspectConfig(cli.io.env);
      const valid = report.config !== null;
      if (!valid) cli.exitCode = 1;
      if (opts.json) {
        return cli.out.json({
          valid,
          problems: report.problems,
          warnings: report.warnings,
          settings: Object.fromEntries(report.settings.map((s) => [s.name, { value: s.value, source: s.source }])),
        });
      }
      const fromEnv = report.settings.filter((s) => s.source === 'environment').length;
      cli.out.line(
        valid
          ? `The configuration is valid: ${fromEnv} setting${fromEnv === 1 ? '' : 's'} from the environment, the others their defaults.`
          : `The configuration is invalid: ${report.problems.length} problem${report.problems.length === 1 ? '' : 's'}.`,
      );
      for (const p of report.problems) cli.out.line(problemLine(p));
      for (const w of report.warnings) cli.out.line(`warning: ${w.message}`);
      if (!valid) return;
      cli.out.line('');
      cli.out.table(report.settings.map((s) => ({ setting: s.name, value: s.value ?? '(unset)', source: s.source })));
    });
}
