import { existsSync, rmSync } from 'node:fs';
import { buildApp } from './app.js';
import { CatalogTooLargeError } from './catalog/read-model/heap-budget.js';
import { seedProblem } from './catalog/store/seed.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { portProblem } from './http/port-probe.js';
import { commandLineOrExit } from './lib/command-line.js';
import { boundHeapGrowth, optimizeHeapForSize } from './operations/heap-tuning.js';
import { storeProblem } from './store/database.js';

const USAGE = `usage: node dist/server.js   (npm start builds dist/ first when the sources changed)

Runs Vetrina: the catalog API, the sandbox, the MCP servers and the developer portal on
http://HOST:PORT (default http://127.0.0.1:3000). Every setting comes from the
environment (README.md, Configuration), e.g. PORT, HOST, DATA_DIR, DATABASE_URL,
REDIS_URL, CATALOG_SEED, CATALOG_RATE_LIMIT, LOG_LEVEL, LOG_FORMAT, ADMIN_TOKENS,
OTEL_EXPORTER_OTLP_ENDPOINT (tracing); a bad value stops it with a message naming the
setting. SIGTERM or SIGINT stop it gracefully (exit 0). Takes no options.`;

/** sysexits' EX_CONFIG: a setting stops the start (a bad value, or what it names is unusable). */
const EXIT_CONFIG = 78;
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
      process.exit(EXIT_CONFIG);
    }
    throw error;
  }
  const v8Flags = boundHeapGrowth(config.heapGrowthPercent);

  // What a start would stumble on later (after migrating and loading the catalog) is
  // said first, each problem with the setting behind it and its fix, before anything is created.
  const newSqliteFile = !config.databaseUrl && config.sqlitePath !== ':memory:' && !existsSync(config.sqlitePath);
  const problems = await Promise.all([
    portProblem(config.host, config.port),
    storeProblem(config),
    newSqliteFile ? seedProblem(config.catalogSeed) : undefined,
  ]);
  if (problems.some(Boolean)) {
    console.error(`Vetrina cannot start:\n  - ${problems.filter(Boolean).join('\n  - ')}`);
    process.exit(EXIT_CONFIG);
  }

  const started = performance.now();
  // Imported only when on: with tracing off the OpenTelemetry SDK is never loaded.
  const tracing = config.tracing.endpoint ? (await import('./operations/tracing.js')).startTracing(config.tracing) : undefined;
  const app = await buildApp({ config }).catch((error: unknown) => {
    // A store that holds its whole catalog is kept for the next start, with more memory.
    if (error instanceof CatalogTooLargeError) {
      console.error(`Vetrina cannot start:\n  - ${error.message}`);
      process.exit(EXIT_CONFIG);
    }
    // A start that fails half-way (a seed file that is no catalog) leaves no half-made store behind.
    if (newSqliteFile) removeSqliteFile(config);
    throw error;
  });
  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info({ ms: Math.round(performance.now() - started), address }, 'Vetrina is listening; /readyz answers 200 once the search index is built');

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
    app
      .close()
      // The spans of the last requests go out before the process ends.
      .then(() => tracing?.shutdown())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'error while shutting down');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  // A failed index build is logged where it fails (src/catalog/read-model/read-model.ts); the instance then never becomes ready.
  const ready = await app.catalogReadModel.whenReady().then(() => true, () => false);
  if (!ready) return;
  v8Flags.push(...optimizeHeapForSize(config.heapOptimizeForSize));
  app.log.info({ ms: Math.round(performance.now() - started), address, url: config.publicBaseUrl, v8Flags }, 'Vetrina is ready');
}

/** The SQLite file this start created, with its write-ahead log. */
function removeSqliteFile(config: Config): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${config.sqlitePath}${suffix}`, { force: true });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
