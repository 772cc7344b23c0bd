import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { commandLineOrExit } from './lib/command-line.js';

const USAGE = `usage: node dist/server.js   (npm start builds dist/ first when the sources changed)

Runs Vetrina: the catalog API, the sandbox, the MCP servers and the developer portal on
http://HOST:PORT (default http://127.0.0.1:3000). Every setting comes from the
environment (README.md, Configuration), e.g. PORT, HOST, DATA_DIR, DATABASE_URL,
REDIS_URL, CATALOG_SEED, CATALOG_RATE_LIMIT, LOG_LEVEL, ADMIN_TOKENS; a bad
value stops it with a message naming the setting. SIGTERM or SIGINT stop it gracefully
(exit 0). Takes no options.`;

/** Bounded so an orchestrator's SIGKILL never lands mid-drain. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  commandLineOrExit(USAGE, {});
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }

  const started = performance.now();
  const app = await buildApp({ config });
  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info({ ms: Math.round(performance.now() - started), address, url: config.publicBaseUrl }, 'Vetrina is ready');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('graceful shutdown timed out');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
