import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { CatalogFile } from '../../catalog/file/catalog-file-schema.js';
import { HEARTBEAT_MS, IMPORT_JOB_PHASES, IMPORT_JOB_STATUSES, LEASE_MS, type JobFile } from '../import-jobs.js';
import { AdminProblem, adminSchemaError } from '../errors.js';
import { CATALOG_HEAP_SHARE } from '../../catalog/read-model/heap-budget.js';
import { errorResponses, ok } from '../schemas.js';
import { actorOf, security, type AdminRouteKit } from './shared.js';

/** A request body written to a temporary file, removed once the import is done with it. */
interface SpooledFile extends JobFile {
  /** Handed to a job, which removes it when done: the request's hooks leave it alone. */
  taken?: boolean;
}

const ImportQuery = Type.Object(
  { unpublish_missing: Type.Boolean({ default: false, description: 'Set products in the store but not in the file to draft (the CLI\'s --unpublish-missing).' }) },
  { additionalProperties: false },
);

const ListQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: '`next_cursor` of the previous page, unchanged.' })),
  },
  { additionalProperties: false },
);

const JobParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'The job id (`imp_...`).' }) });

const strings = (description?: string) => Type.Array(Type.String(), description === undefined ? {} : { description });
const counts = Type.Object({ created: Type.Integer(), updated: Type.Integer() });
const ImportReport = Type.Object(
  {
    regions: Type.Object({
      created: Type.Integer(),
      updated: Type.Integer({ description: 'Regions whose name, currency or countries changed.' }),
      unchanged: Type.Integer(),
      changes: Type.Array(
        Type.Object({
          id: Type.String(),
          change: Type.Enum(['created', 'updated', 'unchanged'], { type: 'string' }),
          fields: strings('What changed: name, currency, countries.'),
          countries_added: strings(),
          countries_removed: strings(),
        }),
        { description: "Each region of the file, and each other region that lost a country to it." },
      ),
      conflicts: Type.Array(
        Type.Object({
          country: Type.String(),
          kept_in: Type.String({ description: 'The region an admin placed the country in, where it stays.' }),
          file_region: Type.Union([Type.String(), Type.Null()], { description: 'Where the file puts it; null: the file lists it in no region.' }),
        }),
        { description: 'Countries the file places otherwise than an admin did (PUT /admin/v1/regions/{id}): kept where the admin put them (docs/admin.md).' },
      ),
    }),
    products: counts,
    variants: Type.Object({ created: Type.Integer(), updated: Type.Integer(), removed: strings('SKUs removed from products in the file.') }),
    missing: strings('Handles in the store but not in the file: kept, unless unpublished.'),
    unpublished: strings(),
    batches: Type.Array(Type.Object({ from: Type.Integer(), to: Type.Integer(), catalog_version: Type.Integer() }), {
      description: "The batches of products committed: the file's products from..to (1-based), each one catalog version.",
    }),
    catalog_version: Type.Integer({ description: "The catalog version after the import's last committed step." }),
  },
  { description: 'What the import wrote; for a failed or cancelled job, what it committed before it stopped.' },
);

const nullableInteger = Type.Union([Type.Integer(), Type.Null()]);
const nullableTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);
const ImportJobSchema = Type.Object({
  id: Type.String(),
  status: Type.Enum([...IMPORT_JOB_STATUSES], { type: 'string', description: 'queued, running, cancelling (asked to stop: it ends after the step it is writing), then succeeded, failed or cancelled.' }),
  phase: Type.Enum([...IMPORT_JOB_PHASES], { type: 'string' }),
  unpublish_missing: Type.Boolean(),
  actor: Type.String({ description: 'The name of the admin token that started it.' }),
  progress: Type.Object(
    {
      validated: Type.Integer(),
      written: Type.Integer(),
      total_products: nullableInteger,
      bytes_read: nullableInteger,
      total_bytes: nullableInteger,
      per_second: Type.Integer({ description: 'Products per second in the current phase.' }),
      eta_seconds: Type.Union([Type.Integer(), Type.Null()], { description: 'Seconds until the current phase ends at its rate so far; null until it can be told.' }),
    },
    { description: `Written to the job every ${HEARTBEAT_MS / 1000} s by the instance running it.` },
  ),
  report: Type.Union([ImportReport, Type.Null()]),
  catalog_versions: Type.Object({ before: Type.Integer(), after: nullableInteger }),
  error: Type.Union([
    Type.Object({
      code: Type.String({
        description:
          "An admin error code (INVALID_REQUEST, CONFLICT, CATALOG_TOO_LARGE: the import would grow the catalog past this instance's heap, or did once it ran, STORE_UNAVAILABLE, INTERNAL_ERROR), or INTERRUPTED: its server stopped.",
      }),
      message: Type.String(),
      hint: Type.String(),
      details: Type.Optional(
        Type.Object(
          {},
          {
            additionalProperties: true,
            description:
              'problems and problem_count for an invalid file; for CATALOG_TOO_LARGE served_products (with the import), projected_heap_mib, heap_limit_mib, catalog_heap_share and setting (NODE_OPTIONS=--max-old-space-size=...).',
          },
        ),
      ),
    }),
    Type.Null(),
  ]),
  created_at: Type.String({ format: 'date-time' }),
  started_at: nullableTime,
  finished_at: nullableTime,
});
const requestId = Type.String({ format: 'uuid' });
const JobAnswer = Type.Object({ job: ImportJobSchema, request_id: requestId });
const JobPage = Type.Object({ jobs: Type.Array(ImportJobSchema), next_cursor: Type.Union([Type.String(), Type.Null()]), request_id: requestId });
const NOT_FOUND = 'NOT_FOUND: no import job has this id (ended jobs beyond ADMIN_IMPORT_JOBS_RETAINED are deleted).';

/**
 * Where request bodies are spooled: a directory per upload, named after the process (its
 * pid and a random id of this process's life), so that a server starting up can tell the
 * uploads of processes that are gone (killed mid-import, which removes nothing) from
 * those of other servers on the machine, and from those of an earlier process with the
 * same pid (a restarted container's server is often pid 1 again).
 */
const SPOOL_PREFIX = 'vetrina-import-';
const THIS_PROCESS = `${process.pid}.${randomBytes(6).toString('hex')}`;
const SPOOLED_BY = new RegExp(`^${SPOOL_PREFIX}(\\d+)\\.([0-9a-f]+)-`);

/** Removes the spooled uploads that processes no longer running left behind; a directory it cannot remove is logged, never fatal. */
async function removeLeftoverUploads(log: FastifyBaseLogger): Promise<void> {
  for (const name of await readdir(tmpdir())) {
    const match = SPOOLED_BY.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    const leftBehind = pid === process.pid ? `${match[1]}.${match[2]}` !== THIS_PROCESS : !isRunning(pid);
    if (!leftBehind) continue;
    await rm(path.join(tmpdir(), name), { recursive: true, force: true }).catch((error: unknown) =>
      log.warn({ err: error, directory: name }, 'a leftover import upload could not be removed'),
    );
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// The file's own `$id` would become a component name the document cannot have.
const { $id: _fileId, ...catalogFileSchema } = CatalogFile as typeof CatalogFile & { $id?: string };

/**
 * /admin/v1/imports: catalog files over HTTP, imported as jobs (../import-jobs.ts). The
 * body is streamed to a temporary file (not held in memory, not subject to the limit of
 * other admin bodies) and imported from there on the CLI's code path, in the background.
 */
export function importRoutes(app: FastifyInstance, { config, imports: jobs }: AdminRouteKit): void {
  void app.register(async (imports) => {
    imports.removeAllContentTypeParsers();
    imports.addContentTypeParser('application/json', async (request: unknown, payload: IncomingMessage) => spool(payload, config.importMaxBytes));
    // These remove a file no job took: a request refused after the body was spooled, answered or abandoned.
    const removeSpooled = async (request: FastifyRequest) => {
      const file = request.body as SpooledFile | undefined;
      if (file && !file.taken) await file.remove();
    };
    imports.addHook('onResponse', removeSpooled);
    imports.addHook('onRequestAbort', removeSpooled);
    imports.addHook('onReady', () => removeLeftoverUploads(imports.log));

    imports.post<{ Querystring: Static<typeof ImportQuery> }>(
      '/imports',
      {
        schema: {
          operationId: 'adminImportCatalog',
          tags: ['imports'],
          summary: 'Start importing a catalog file',
          description: `The body is a whole catalog file (docs/catalog-format.md), up to ${config.importMaxBytes} bytes (ADMIN_IMPORT_MAX_BYTES); the whole body must arrive within REQUEST_TIMEOUT_MS. Answered 202 with a job (Location: its URL) once the file is received; the import runs in the background of this instance, exactly as \`npm run catalog:import\` does: validated completely first (an invalid file changes nothing: the job fails with error.details.problems, the first 100, and problem_count), then checked against this instance's heap (a file whose products, beside the catalog served now, would take more than ${CATALOG_HEAP_SHARE * 100}% of it, projected from the heap each served product takes here, changes nothing: the job fails with error CATALOG_TOO_LARGE, a 409 code, whose details name served_products, projected_heap_mib, heap_limit_mib and the setting that would hold it; docs/deploy.md, Memory), then checked against the store (a region's currency, the category tree; refused whole), then regions are upserted by id, products by handle, variants by SKU, in batches each committed as it goes. One import runs at a time per store: 409 while another job is active.`,
          security,
          querystring: ImportQuery,
          'x-documented-body': catalogFileSchema,
          response: {
            202: ok('Accepted: the job, queued', JobAnswer, { Location: Type.String({ description: 'The job: /admin/v1/imports/{id}.' }) }),
            ...errorResponses({
              400: 'INVALID_REQUEST: a bad query, or a body that is not a JSON catalog file (Content-Type application/json).',
              409: "CONFLICT: another import job is active (details.job_id); imports run one at a time. CATALOG_TOO_LARGE: this instance's catalog has outgrown its heap (its /readyz answers 503), details as in a job's error.",
              413: 'PAYLOAD_TOO_LARGE: the file is larger than ADMIN_IMPORT_MAX_BYTES.',
            }),
          },
        },
        // Fastify validates the query after the body is parsed, here after the whole file is
        // spooled: checked before, a bad query or a busy importer is refused before the upload is read.
        onRequest: async (request) => {
          const validate = request.getValidationFunction('querystring');
          if (validate && !validate(request.query)) throw adminSchemaError(validate.errors ?? [], 'querystring');
          await jobs.refuseWhileActive();
          jobs.refuseWhileOutgrown();
        },
      },
      async (request, reply) => {
        const file = request.body as SpooledFile | undefined;
        if (!file) throw new AdminProblem('INVALID_REQUEST', 'Invalid request: the body must be a catalog file.', 'Send the file as the body with Content-Type: application/json.');
        const job = await jobs.start(actorOf(request), file, request.query.unpublish_missing);
        file.taken = true;
        return reply.code(202).header('location', `/admin/v1/imports/${job.id}`).send({ job, request_id: request.id });
      },
    );
  });

  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/imports',
    {
      schema: {
        operationId: 'adminListImports',
        tags: ['imports'],
        summary: 'List import jobs',
        description: `Newest first, with \`next_cursor\`; the last ${config.importJobsRetained} ended jobs are kept (ADMIN_IMPORT_JOBS_RETAINED), with every active one.`,
        security,
        querystring: ListQuery,
        response: { 200: ok('A page of jobs', JobPage), ...errorResponses({}) },
      },
    },
    async (request) => ({ ...(await jobs.list(request.query.limit, request.query.cursor)), request_id: request.id }),
  );

  app.get<{ Params: Static<typeof JobParams> }>(
    '/imports/:id',
    {
      schema: {
        operationId: 'adminGetImport',
        tags: ['imports'],
        summary: 'Read an import job',
        description: `Its status, phase, progress (written to it every ${HEARTBEAT_MS / 1000} s by the instance running it; any instance answers), report and error. A job whose instance stopped (killed, or cut off from the store for ${LEASE_MS / 1000} s) is marked failed with error INTERRUPTED, its report listing the batches it committed.`,
        security,
        params: JobParams,
        response: { 200: ok('The job', JobAnswer), ...errorResponses({ 404: NOT_FOUND }) },
      },
    },
    async (request) => ({ job: await jobs.get(request.params.id), request_id: request.id }),
  );

  app.post<{ Params: Static<typeof JobParams> }>(
    '/imports/:id/cancel',
    {
      schema: {
        operationId: 'adminCancelImport',
        tags: ['imports'],
        summary: 'Cancel an import job',
        description: 'The job becomes `cancelling`; the instance running it (any instance may take the request) stops before its next step, and the job ends `cancelled` with a report of what it committed, each batch whole. Cancelling a cancelling job answers it again.',
        security,
        params: JobParams,
        response: {
          202: ok('Accepted: the job, cancelling', JobAnswer),
          ...errorResponses({ 404: NOT_FOUND, 409: 'CONFLICT: the job has already ended.' }),
        },
      },
    },
    async (request, reply) => reply.code(202).send({ job: await jobs.cancel(request.params.id), request_id: request.id }),
  );
}

async function spool(payload: IncomingMessage, maxBytes: number): Promise<SpooledFile> {
  const tooLarge = () => new AdminProblem('PAYLOAD_TOO_LARGE', `The catalog file is larger than ${maxBytes} bytes.`, 'Raise ADMIN_IMPORT_MAX_BYTES, or import the file with the CLI.');
  if (Number(payload.headers['content-length']) > maxBytes) throw tooLarge();
  const dir = await mkdtemp(path.join(tmpdir(), `${SPOOL_PREFIX}${THIS_PROCESS}-`));
  const file: SpooledFile = { path: path.join(dir, 'catalog.json'), remove: () => rm(dir, { recursive: true, force: true }) };
  let received = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      callback(received > maxBytes ? tooLarge() : null, chunk);
    },
  });
  try {
    await pipeline(payload, limit, createWriteStream(file.path));
  } catch (error) {
    await file.remove();
    throw error;
  }
  return file;
}
