// Runs a gateway process: read the environment, build the app, listen, and shut down cleanly on
// signals. src/server.ts is this with no options; the benchmarks add their baseline routes.
import { buildApp, type BuildOptions } from './app.ts';
import { ConfigError, inspectConfig } from './config/index.ts';
import { redactUrl } from './shared/redact-url.ts';

export async function runGateway(options: BuildOptions = {}): Promise<void> {
  try {
    const { config, problems, warnings } = inspectConfig();
    if (!config) throw new ConfigError(problems);
    const app = await buildApp(config, options);
    // A misspelt variable is ignored and its default used: say so where the operator looks.
    for (const w of warnings) app.log.warn({ variable: w.name, suggestion: w.suggestion }, w.message);
    const port = await app.start();
    app.log.info({ port, siteRoot: config.siteRoot, database: redactUrl(config.databaseUrl) }, 'gateway listening');
    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'shutting down');
      await app.stop();
      process.exit(0);
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`gateway: ${err.message}`);
      process.exit(2);
    }
    console.error(err);
    process.exit(1);
  }
}
