import type { FastifyBaseLogger } from 'fastify';
import type { CatalogWriter } from '../catalog/store/catalog-writer.js';
import { readCatalogVersion } from '../catalog/store/change-log.js';
import { importCatalogFile } from '../catalog/store/import-catalog-file.js';
import { emptyImportReport, type BatchCounts, type ImportReport } from '../catalog/store/import-catalog.js';
import type { ImportProgress } from '../catalog/store/import-progress.js';
import type { CatalogReadModel } from '../catalog/read-model/read-model.js';
import { newOrderedId } from '../lib/new-id.js';
import type { ImportJobTable } from '../store/schema.js';
import { adminErrors, AdminProblem } from './errors.js';
import type { Selectable } from 'kysely';

export type ImportJobStatus = 'queued' | 'running' | 'cancelling' | 'succeeded' | 'failed' | 'cancelled';
export const IMPORT_JOB_STATUSES: readonly ImportJobStatus[] = ['queued', 'running', 'cancelling', 'succeeded', 'failed', 'cancelled'];
export const IMPORT_JOB_PHASES = ['queued', 'validating', 'writing', 'done'] as const;
type Phase = (typeof IMPORT_JOB_PHASES)[number];

/** How often the instance running a job writes its progress and heartbeat to the job's row. */
export const HEARTBEAT_MS = 1000;
/**
 * A job whose heartbeat is older than this was interrupted (its instance was killed or
 * lost the store): any instance then marks it failed. Ten heartbeats: an instance
 * that is alive but slow (a busy machine, a long transaction) is not taken for dead.
 */
export const LEASE_MS = 10 * HEARTBEAT_MS;

/** Problems a failed job lists; `problem_count` says how many the check found in all. */
const MAX_PROBLEMS_SHOWN = 100;

export interface ImportJobProgress {
  validated: number;
  written: number;
  total_products: number | null;
  bytes_read: number | null;
  total_bytes: number | null;
  per_second: number;
  eta_seconds: number | null;
}

export interface ImportJobError {
  code: string;
  message: string;
  hint: string;
  details?: Record<string, unknown>;
}

/** A job as the API answers it (the ImportJob schema of routes/imports.ts). */
export interface ImportJob {
  id: string;
  status: ImportJobStatus;
  phase: Phase;
  unpublish_missing: boolean;
  actor: string;
  progress: ImportJobProgress;
  report: ImportJobReport | null;
  catalog_versions: { before: number; after: number | null };
  error: ImportJobError | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** The import report as the API answers it. */
export type ImportJobReport = Omit<ImportReport, 'catalogVersion' | 'catalogVersionBefore'> & { catalog_version: number };

export function apiReport({ catalogVersion, catalogVersionBefore: _before, ...rest }: ImportReport): ImportJobReport {
  return { ...rest, catalog_version: catalogVersion };
}

/** A catalog file spooled to disk for a job; removed once the job is done with it. */
export interface JobFile {
  path: string;
  remove(): Promise<void>;
}

/** Why a job stopped before its end: cancelled through the API, or its server shutting down. */
class JobStopped extends Error {
  constructor(readonly status: 'cancelled' | 'failed') {
    super(status);
  }
}

const INTERRUPTED: ImportJobError = {
  code: 'INTERRUPTED',
  message: 'The import was interrupted (its server stopped or lost the store); the batches in its report were committed, nothing else.',
  hint: 'Import the same file again: imports are idempotent upserts, so it completes what this one began.',
};

const NO_PROGRESS: ImportJobProgress = { validated: 0, written: 0, total_products: null, bytes_read: null, total_bytes: null, per_second: 0, eta_seconds: null };
const ACTIVE = ['queued', 'running', 'cancelling'];

interface Cursor {
  created_at: string;
  id: string;
}
const encodeCursor = ({ created_at, id }: Cursor) => Buffer.from(`${created_at} ${id}`).toString('base64url');
function decodeCursor(cursor: string): Cursor {
  const match = /^(\S{1,40}) (imp_[0-9a-f]{24})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw new AdminProblem('INVALID_REQUEST', 'Invalid request: cursor is not a cursor this API issued.', 'Pass next_cursor back unchanged.');
  return { created_at: match[1]!, id: match[2]! };
}

/**
 * Catalog imports as jobs. A job is a row of `import_jobs` (migration 0013), so every
 * instance answers for every job; the instance that received the file runs it in the
 * background (the file is on its disk), writing the job's progress and heartbeat to the
 * row every `HEARTBEAT_MS`, and checking the row for a cancellation before each step's
 * transaction. One job is active per store at a time: the importer's last step lists
 * (and may unpublish) the products its file lacks, which another import running beside
 * it would be writing; a second import is refused with 409 while one is active. An
 * import that would grow the catalog past what this instance's heap holds is refused
 * (CATALOG_TOO_LARGE) once its file is checked, before it writes anything.
 *
 * Every instance marks failed the active jobs whose heartbeat is older than `LEASE_MS`
 * (their instance died), when it starts and then every half lease, and fills in their
 * report from the audit trail, where each committed step of an import is recorded, with
 * its job, in the step's own transaction.
 */
export class ImportJobs {
  readonly #db;
  /** This instance's running jobs: their ends, awaited on close. */
  readonly #running = new Map<string, Promise<void>>();
  #closing = false;
  #reaper: NodeJS.Timeout | undefined;

  constructor(
    private readonly writer: CatalogWriter,
    /** This instance's catalog: an import it cannot hold is refused before it writes, and stopped once it has outgrown it. */
    private readonly served: Pick<CatalogReadModel, 'checkImport' | 'outgrown'>,
    private readonly log: FastifyBaseLogger,
    /** Ended jobs kept (ADMIN_IMPORT_JOBS_RETAINED); older ones are deleted when a job is created. */
    private readonly retained: number,
  ) {
    this.#db = writer.db;
  }

  /** Refuses (409) while a job is active, naming it. */
  async refuseWhileActive(): Promise<void> {
    await this.reapInterrupted();
    const active = await this.#db.selectFrom('import_jobs').select(['id', 'status']).where('active', '=', 1).executeTakeFirst();
    if (active) throw busy(active.id, active.status);
  }

  /** Refuses (409 CATALOG_TOO_LARGE) once this instance's catalog has outgrown its heap: every import would be refused when its file is checked. */
  refuseWhileOutgrown(): void {
    if (this.served.outgrown) throw this.served.outgrown;
  }

  /** Creates a job for a spooled file and runs it in the background; once it returns, the job removes the file when done with it. */
  async start(actor: string, file: JobFile, unpublishMissing: boolean): Promise<ImportJob> {
    const now = new Date().toISOString();
    const row = {
      id: newOrderedId('imp'),
      status: 'queued',
      phase: 'queued',
      active: 1,
      unpublish_missing: unpublishMissing ? 1 : 0,
      actor,
      progress: JSON.stringify(NO_PROGRESS),
      report: null,
      version_before: await readCatalogVersion(this.#db),
      version_after: null,
      error: null,
      created_at: now,
      started_at: null,
      finished_at: null,
      heartbeat_at: now,
    };
    await this.refuseWhileActive();
    try {
      await this.#db.insertInto('import_jobs').values(row).execute();
    } catch (error) {
      // Another instance created one between the check and the insert: the unique index refused this one.
      const active = await this.#db.selectFrom('import_jobs').select(['id', 'status']).where('active', '=', 1).executeTakeFirst();
      throw active ? busy(active.id, active.status) : error;
    }
    const run = this.#run(row.id, actor, file, unpublishMissing)
      // The store lost while the job's end is recorded: the job stays active until its lease runs out, then any instance marks it interrupted.
      .catch((error: unknown) => this.log.error({ err: error, job: row.id }, 'an import job could not record its end'))
      .finally(() => this.#running.delete(row.id));
    this.#running.set(row.id, run);
    await this.#prune().catch((error: unknown) => this.log.warn({ err: error }, 'deleting old import jobs failed'));
    return view(row);
  }

  async get(id: string): Promise<ImportJob> {
    const row = await this.#db.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AdminProblem('NOT_FOUND', `No import job has the id ${id}.`, 'GET /admin/v1/imports lists the jobs kept.');
    return view(row);
  }

  /** Jobs newest first, with the cursor of the next page (null on the last). */
  async list(limit: number, cursor?: string): Promise<{ jobs: ImportJob[]; next_cursor: string | null }> {
    let select = this.#db.selectFrom('import_jobs').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1);
    if (cursor !== undefined) {
      const after = decodeCursor(cursor);
      select = select.where((eb) => eb.or([eb('created_at', '<', after.created_at), eb.and([eb('created_at', '=', after.created_at), eb('id', '<', after.id)])]));
    }
    const rows = await select.execute();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { jobs: page.map(view), next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
  }

  /** Asks a job to stop: it ends `cancelled` once the step it is writing has committed. 409 once it has ended. */
  async cancel(id: string): Promise<ImportJob> {
    await this.#db.updateTable('import_jobs').set({ status: 'cancelling' }).where('id', '=', id).where('status', 'in', ['queued', 'running']).execute();
    const job = await this.get(id);
    if (!ACTIVE.includes(job.status)) {
      throw new AdminProblem('CONFLICT', `Import job ${id} has already ended (${job.status}); there is nothing to cancel.`, 'GET /admin/v1/imports/{id} shows what it did.');
    }
    return job;
  }

  /** Marks failed the active jobs of other instances whose heartbeat stopped, each with what its audit entries say it wrote. */
  async reapInterrupted(): Promise<void> {
    const cutoff = new Date(Date.now() - LEASE_MS).toISOString();
    const stale = await this.#db
      .selectFrom('import_jobs')
      .select(['id', 'actor', 'version_before'])
      .where('active', '=', 1)
      .where('heartbeat_at', '<', cutoff)
      .$if(this.#running.size > 0, (select) => select.where('id', 'not in', [...this.#running.keys()]))
      .execute();
    for (const job of stale) {
      // The report is rebuilt before the job is marked failed, and both are written in one statement: a reader never sees a failed job without its report.
      const report = await reportFromAudit(this.#db, job.id, job.actor, Number(job.version_before));
      const marked = await this.#db
        .updateTable('import_jobs')
        .set({
          status: 'failed',
          phase: 'done',
          active: null,
          error: JSON.stringify(INTERRUPTED),
          finished_at: new Date().toISOString(),
          report: report && JSON.stringify(apiReport(report)),
          version_after: report?.catalogVersion ?? null,
        })
        .where('id', '=', job.id)
        .where('active', '=', 1)
        .where('heartbeat_at', '<', cutoff)
        .executeTakeFirst();
      // Another instance marked it first, or its runner came back to life: nothing to say.
      if (Number(marked.numUpdatedRows) === 0) continue;
      this.log.warn({ job: job.id, catalog_versions: { before: Number(job.version_before), after: report?.catalogVersion ?? null } }, 'catalog import interrupted: marked failed');
    }
  }

  /** Starts looking for interrupted jobs: now, and every half lease. */
  async watch(): Promise<void> {
    await this.reapInterrupted();
    this.#reaper = setInterval(() => {
      this.reapInterrupted().catch((error: unknown) => this.log.warn({ err: error }, 'looking for interrupted import jobs failed'));
    }, LEASE_MS / 2);
    this.#reaper.unref();
  }

  /** Stops this instance's jobs after the step each is writing (they end failed, INTERRUPTED, with their reports) and waits for them. */
  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#reaper);
    await Promise.all(this.#running.values());
  }

  async #run(id: string, actor: string, file: JobFile, unpublishMissing: boolean): Promise<void> {
    const db = this.#db;
    let phase: Phase = 'validating';
    let progress = { ...NO_PROGRESS };
    const report = emptyImportReport();
    // Heartbeats never overlap: one still waiting for the store is not followed by another.
    let beating: Promise<unknown> = Promise.resolve();
    const beat = () => {
      beating = beating.then(() =>
        db
          .updateTable('import_jobs')
          .set({ phase, progress: JSON.stringify(progress), heartbeat_at: new Date().toISOString() })
          .where('id', '=', id)
          .where('active', '=', 1)
          .execute()
          .catch((error: unknown) => this.log.warn({ err: error, job: id }, 'import job heartbeat failed')),
      );
    };
    const heartbeat = setInterval(beat, HEARTBEAT_MS);
    let outcome: { status: ImportJobStatus; error: ImportJobError | null };
    try {
      await db.updateTable('import_jobs').set({ status: 'running', phase, started_at: new Date().toISOString() }).where('id', '=', id).where('status', '=', 'queued').execute();
      await importCatalogFile(this.writer, file.path, {
        actor,
        job: id,
        unpublishMissing,
        report,
        progressIntervalMs: HEARTBEAT_MS / 4,
        onProgress: (measured) => {
          phase = measured.phase;
          progress = jobProgress(measured, progress);
        },
        beforeWrite: (plan) => this.served.checkImport(plan.handles),
        beforeStep: async () => {
          if (this.#closing) throw new JobStopped('failed');
          // The catalog may have outgrown this instance's heap since the file was checked: an import into a catalog too small to
          // project it from (HeapBudget's sample), or changes made elsewhere. The job stops, its report listing what it wrote.
          this.refuseWhileOutgrown();
          const row = await db.selectFrom('import_jobs').select('status').where('id', '=', id).executeTakeFirst();
          if (row?.status === 'cancelling') throw new JobStopped('cancelled');
          if (phase === 'validating') {
            // The file is valid: its products are counted, and the rate and ETA are those of the writing from now on.
            phase = 'writing';
            progress = { ...progress, total_products: progress.validated, per_second: 0, eta_seconds: null };
            beat();
          }
        },
      });
      outcome = { status: 'succeeded', error: null };
    } catch (error) {
      if (error instanceof JobStopped) outcome = { status: error.status, error: error.status === 'failed' ? INTERRUPTED : null };
      else {
        const failure = jobError(error);
        if (failure.code === 'INTERNAL_ERROR') this.log.error({ err: error, job: id }, 'catalog import failed');
        outcome = { status: 'failed', error: failure };
      }
    } finally {
      clearInterval(heartbeat);
      await beating;
      await file.remove();
    }
    // Nothing was written unless the regions' step committed (it sets the version).
    const wrote = report.catalogVersion > 0;
    await db
      .updateTable('import_jobs')
      .set({
        status: outcome.status,
        phase: 'done',
        active: null,
        progress: JSON.stringify(progress),
        report: wrote ? JSON.stringify(apiReport(report)) : null,
        ...(wrote && { version_before: report.catalogVersionBefore, version_after: report.catalogVersion }),
        error: outcome.error && JSON.stringify(outcome.error),
        finished_at: new Date().toISOString(),
      })
      .where('id', '=', id)
      .execute();
    this.log.info(
      {
        job: id,
        actor,
        status: outcome.status,
        catalog_versions: wrote ? { before: report.catalogVersionBefore, after: report.catalogVersion } : null,
        products: report.products,
        ...(outcome.error && { error: outcome.error.code }),
      },
      `catalog import ${outcome.status}`,
    );
  }

  /** Deletes the ended jobs beyond the newest `retained`. */
  async #prune(): Promise<void> {
    const kept = this.#db.selectFrom('import_jobs').select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(this.retained);
    await this.#db.deleteFrom('import_jobs').where('active', 'is', null).where('id', 'not in', kept).execute();
  }
}

function busy(id: string, status: string): AdminProblem {
  return new AdminProblem(
    'CONFLICT',
    `Import job ${id} is ${status}: imports run one at a time.`,
    'Wait for it to end (GET /admin/v1/imports/{id}) or cancel it (POST /admin/v1/imports/{id}/cancel), then send the file again.',
    { job_id: id },
  );
}

function jobProgress(measured: ImportProgress, before: ImportJobProgress): ImportJobProgress {
  const common = { per_second: measured.perSecond, eta_seconds: measured.etaSeconds ?? null };
  if (measured.phase === 'validating') {
    return { ...before, ...common, validated: measured.products, bytes_read: measured.bytesRead ?? null, total_bytes: measured.totalBytes ?? null };
  }
  const total = measured.totalProducts ?? before.total_products;
  return { ...before, ...common, validated: total ?? before.validated, written: measured.products, total_products: total ?? null };
}

function view(row: Selectable<ImportJobTable>): ImportJob {
  return {
    id: row.id,
    status: row.status as ImportJobStatus,
    phase: row.phase as Phase,
    unpublish_missing: Number(row.unpublish_missing) === 1,
    actor: row.actor,
    progress: JSON.parse(row.progress) as ImportJobProgress,
    report: row.report === null ? null : (JSON.parse(row.report) as ImportJobReport),
    catalog_versions: { before: Number(row.version_before), after: row.version_after === null ? null : Number(row.version_after) },
    error: row.error === null ? null : (JSON.parse(row.error) as ImportJobError),
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

/** How a failure is reported: the admin API's code and message for a refused file, else an internal error that tells nothing of the internals. */
function jobError(error: unknown): ImportJobError {
  const problems = (error as { problems?: unknown }).problems;
  if (Array.isArray(problems)) {
    return {
      code: 'INVALID_REQUEST',
      message: `The catalog file is invalid (${problems.length} problems); nothing was imported.`,
      hint: 'Fix the problems listed in details.problems (JSON paths into the file); npm run catalog:import -- FILE --dry-run checks a file locally.',
      details: { problems: problems.slice(0, MAX_PROBLEMS_SHOWN), problem_count: problems.length },
    };
  }
  const problem = adminErrors.recognise?.(error);
  if (problem) {
    return { code: problem.code, message: problem.message, hint: problem.details.hint ?? '', ...(problem instanceof AdminProblem && problem.data && { details: problem.data }) };
  }
  return { code: 'INTERNAL_ERROR', message: 'The import failed unexpectedly; its report lists what it committed.', hint: 'The server log has the cause (the job id is in it). Importing the file again completes it.' };
}

interface StepEntry {
  step: 'regions' | 'products' | 'done';
  job?: string;
  regions?: ImportReport['regions'];
  products?: { from: number; to: number } | ImportReport['products'];
}

/**
 * What job `id` wrote, as the audit entries of its committed steps record it (they name
 * the job): the regions, then each batch of products. Null when no step committed.
 */
async function reportFromAudit(db: CatalogWriter['db'], id: string, actor: string, versionBefore: number): Promise<ImportReport | null> {
  const entries = await db
    .selectFrom('admin_audit')
    .select(['seq', 'version_before', 'changes'])
    .where('actor', '=', actor)
    .where('seq', '>', versionBefore)
    .where('action', '=', 'import')
    .where('target_type', '=', 'catalog')
    .orderBy('seq')
    .execute();
  const report = emptyImportReport();
  let found = false;
  for (const entry of entries) {
    const changes = JSON.parse(entry.changes) as StepEntry & Partial<BatchCounts>;
    if (changes.job !== id) continue;
    found = true;
    report.catalogVersion = Number(entry.seq);
    report.catalogVersionBefore = Number(entry.version_before);
    if (changes.step === 'regions' && changes.regions) report.regions = changes.regions;
    if (changes.step === 'products' && changes.products && 'from' in changes.products) {
      report.batches.push({ from: changes.products.from, to: changes.products.to, catalog_version: Number(entry.seq) });
      report.products.created += changes.products_created ?? 0;
      report.products.updated += changes.products_updated ?? 0;
      report.variants.created += changes.variants?.created ?? 0;
      report.variants.updated += changes.variants?.updated ?? 0;
      report.variants.removed.push(...(changes.variants?.removed ?? []));
    }
  }
  report.variants.removed.sort();
  return found ? report : null;
}

