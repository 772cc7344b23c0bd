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
import type { ImportReport } from '../../catalog/store/import-catalog.js';
import { AdminProblem, adminSchemaError } from '../errors.js';
import { errorResponses, ok } from '../schemas.js';
import { actorOf, security, type AdminRouteKit } from './shared.js';

/** A request body written to a temporary file, removed once the import is done with it. */
interface SpooledFile {
  path: string;
  remove(): Promise<void>;
}

const ImportQuery = Type.Object(
  { unpublish_missing: Type.Boolean({ default: false, description: 'Set products in the store but not in the file to draft (the CLI\'s --unpublish-missing).' }) },
  { additionalProperties: false },
);

const counts = Type.Object({ created: Type.Integer(), updated: Type.Integer() });
const ImportAnswer = Type.Object({
  report: Type.Object({
    regions: counts,
    products: counts,
    variants: Type.Object({ created: Type.Integer(), updated: Type.Integer(), removed: Type.Array(Type.String(), { description: 'SKUs removed from products in the file.' }) }),
    missing: Type.Array(Type.String(), { description: 'Handles in the store but not in the file: kept, unless unpublished.' }),
    unpublished: Type.Array(Type.String()),
    catalog_version: Type.Integer(),
  }),
  request_id: Type.String({ format: 'uuid' }),
});

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

/** Problems listed in a 400; the count says how many there were in all. */
const MAX_PROBLEMS_SHOWN = 100;

// The file's own `$id` would become a component name the document cannot have.
const { $id: _fileId, ...catalogFileSchema } = CatalogFile as typeof CatalogFile & { $id?: string };

/**
 * POST /admin/v1/imports: the catalog file format over HTTP. The body is streamed to a
 * temporary file (not held in memory, not subject to the limit of other admin bodies)
 * and imported from there on the CLI's code path.
 */
export function importRoutes(app: FastifyInstance, { config, service }: AdminRouteKit): void {
  void app.register(async (imports) => {
    imports.removeAllContentTypeParsers();
    imports.addContentTypeParser('application/json', async (request: unknown, payload: IncomingMessage) => spool(payload, config.importMaxBytes));
    // The handler removes the file it imported; these cover a request refused after the
    // body was spooled but before the handler ran, answered or abandoned.
    const removeSpooled = async (request: FastifyRequest) => (request.body as SpooledFile | undefined)?.remove();
    imports.addHook('onResponse', removeSpooled);
    imports.addHook('onRequestAbort', removeSpooled);
    imports.addHook('onReady', () => removeLeftoverUploads(imports.log));

    imports.post<{ Querystring: Static<typeof ImportQuery> }>(
      '/imports',
      {
        schema: {
          operationId: 'adminImportCatalog',
          tags: ['imports'],
          summary: 'Import a catalog file',
          description: `The body is a whole catalog file (docs/catalog-format.md), up to ${config.importMaxBytes} bytes (ADMIN_IMPORT_MAX_BYTES), imported exactly as \`npm run catalog:import\` does: validated completely first (an invalid file changes nothing: 400 with details.problems, the first ${MAX_PROBLEMS_SHOWN}, and details.problem_count), then checked against the store (a region's currency, the category tree; refused whole), then regions are upserted by id, products by handle, variants by SKU, in batches each committed as it goes (an import that stops half-way leaves what it committed, each step audited). The whole body must arrive within REQUEST_TIMEOUT_MS.`,
          security,
          querystring: ImportQuery,
          'x-documented-body': catalogFileSchema,
          response: {
            200: ok('Imported', ImportAnswer),
            ...errorResponses({
              400: 'INVALID_REQUEST: not a valid catalog file (details.problems with JSON paths), categories that would be too deep or in a cycle over the stored tree, or a bad query.',
              409: 'CONFLICT: the file changes the currency of a region that has prices of its own (as PUT /admin/v1/regions/{id} refuses); nothing was written.',
              413: 'PAYLOAD_TOO_LARGE: the file is larger than ADMIN_IMPORT_MAX_BYTES.',
            }),
          },
        },
        // Fastify validates the query after the body is parsed, here after the whole file is
        // spooled: checked before, a bad query is refused before the upload is read.
        onRequest: async (request) => {
          const validate = request.getValidationFunction('querystring');
          if (validate && !validate(request.query)) throw adminSchemaError(validate.errors ?? [], 'querystring');
        },
      },
      async (request) => {
        const file = request.body as SpooledFile | undefined;
        if (!file) throw new AdminProblem('INVALID_REQUEST', 'Invalid request: the body must be a catalog file.', 'Send the file as the body with Content-Type: application/json.');
        let report: ImportReport;
        try {
          report = await service.importFile(actorOf(request), file.path, request.query.unpublish_missing, request.log);
        } catch (error) {
          throw invalidFile(error) ?? error;
        } finally {
          // Also when the client has gone away meanwhile: no response is then sent, and onResponse never runs.
          await file.remove();
        }
        const { catalogVersion, ...rest } = report;
        return { report: { ...rest, catalog_version: catalogVersion }, request_id: request.id };
      },
    );
  });
}

/** The importer reports an invalid file with its `problems`; anything else is not the client's doing. */
function invalidFile(error: unknown): AdminProblem | undefined {
  const problems = (error as { problems?: unknown }).problems;
  if (!Array.isArray(problems)) return undefined;
  return new AdminProblem(
    'INVALID_REQUEST',
    `The catalog file is invalid (${problems.length} problems); nothing was imported.`,
    'Fix the problems listed in details.problems (JSON paths into the file); npm run catalog:import -- FILE --dry-run checks a file locally.',
    { problems: problems.slice(0, MAX_PROBLEMS_SHOWN), problem_count: problems.length },
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
