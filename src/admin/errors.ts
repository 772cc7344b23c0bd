import type { FastifySchemaValidationError } from 'fastify';
import type { SchemaErrorDataVar } from 'fastify/types/schema.js';
import type { ErrorSurface } from '../http/error-surface.js';
import { HttpProblem } from '../http/problem.js';
import { isStoreUnavailable } from '../store/store-unavailable.js';
import { CatalogWriteError, type WriteRefusal } from '../catalog/store/write/write-errors.js';
import { CatalogTooLargeError } from '../catalog/read-model/heap-budget.js';

/** The admin API's error codes, each with the status it is answered with. */
const STATUS_OF = {
  INVALID_REQUEST: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** The import would grow the catalog past what this instance's heap holds (src/catalog/read-model/heap-budget.ts). */
  CATALOG_TOO_LARGE: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  STORE_UNAVAILABLE: 503,
} as const;

export type AdminErrorCode = keyof typeof STATUS_OF;
export const ADMIN_ERROR_CODES = Object.keys(STATUS_OF) as AdminErrorCode[];

/** An admin failure: the status follows from the code; `details` carries what a program needs to react (rows, the current version...). */
export class AdminProblem extends HttpProblem {
  constructor(
    code: AdminErrorCode,
    message: string,
    hint: string,
    readonly data?: Record<string, unknown>,
    headers?: Record<string, string>,
  ) {
    super(STATUS_OF[code], code, message, { hint, ...(headers && { headers }) });
    this.name = 'AdminProblem';
  }
}

const REALM = 'Bearer realm="vetrina-admin"';

export function unauthorized(message: string, tokenSent: boolean): AdminProblem {
  return new AdminProblem('UNAUTHORIZED', message, 'Send Authorization: Bearer <token> with a token from ADMIN_TOKENS.', undefined, {
    'www-authenticate': tokenSent ? `${REALM}, error="invalid_token"` : REALM,
  });
}

/** How long a client is asked to wait while the store is unreachable. */
const STORE_RETRY_AFTER_SECONDS = 5;

/** The envelope of every answer under /admin: `{ error: { code, message, hint, details? }, request_id }`. */
/** Where the admin routes are documented (the route is `/openapi.json` in the `/admin` context). */
export const ADMIN_DOCUMENT_PATH = '/admin/openapi.json';

export const adminErrors: ErrorSurface = {
  body: (problem, { id }) => ({
    error: {
      code: problem.code,
      message: problem.message,
      hint: problem.details.hint ?? '',
      ...(problem instanceof AdminProblem && problem.data && { details: problem.data }),
    },
    request_id: id,
  }),
  invalidRequestCode: 'INVALID_REQUEST',
  notFoundCode: 'NOT_FOUND',
  internalErrorCode: 'INTERNAL_ERROR',
  document: ADMIN_DOCUMENT_PATH,
  recognise: (error) => {
    if (isStoreUnavailable(error)) {
      return new HttpProblem(503, 'STORE_UNAVAILABLE', 'The store is unreachable; nothing was written.', {
        hint: 'Retry shortly with the same request.',
        retryAfter: STORE_RETRY_AFTER_SECONDS,
      });
    }
    if (error instanceof CatalogWriteError) return refusalProblem(error);
    if (error instanceof CatalogTooLargeError) {
      return new AdminProblem(
        'CATALOG_TOO_LARGE',
        error.message,
        'Restart every instance with the larger heap details.setting names (and the memory to match), then send the file again; or import fewer new products.',
        error.details,
      );
    }
    if ((error as { statusCode?: number }).statusCode === 413) {
      return new AdminProblem('PAYLOAD_TOO_LARGE', (error as Error).message, 'Send a smaller body: bulk routes take at most 1,000 rows.');
    }
    return undefined;
  },
  headers: { 'cache-control': 'no-store' },
};

function refusalProblem(error: CatalogWriteError): AdminProblem {
  const refusal: WriteRefusal = error.refusal;
  switch (refusal.kind) {
    case 'not_found':
      return new AdminProblem('NOT_FOUND', error.message, 'Check the handle or id; GET it to see what exists.');
    case 'version_mismatch':
      return new AdminProblem('PRECONDITION_FAILED', error.message, 'Read the resource again, re-apply your change and send its new ETag in If-Match.', {
        current_version: refusal.currentVersion,
      });
    case 'conflict':
      return new AdminProblem('CONFLICT', error.message, 'Change the other resource first, then retry.');
    case 'invalid':
      return new AdminProblem('INVALID_REQUEST', error.message, 'Fix the listed problems; nothing was written.', { problems: refusal.problems });
    case 'invalid_rows': {
      // Rows refused only for their if_version are a failed precondition, like a stale If-Match.
      const stale = refusal.rows.every((row) => row.code === 'VERSION_MISMATCH');
      return new AdminProblem(
        stale ? 'PRECONDITION_FAILED' : 'INVALID_REQUEST',
        error.message,
        'Fix or drop the rows listed in details.rows and send the whole request again.',
        { rows: refusal.rows },
      );
    }
  }
}

/** `/prices/0/amount` as `prices[0].amount`. */
function fieldPath(dataVar: string, pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : `${path}.${part.replace(/~1/g, '/').replace(/~0/g, '~')}`), dataVar);
}

/** A schema violation as one sentence naming the field and what it accepts. */
export function adminSchemaError(errors: FastifySchemaValidationError[], dataVar: SchemaErrorDataVar): Error {
  const error = errors[0]!;
  const at = fieldPath(dataVar, error.instancePath);
  const params = error.params as { additionalProperty?: string; missingProperty?: string; allowedValues?: unknown[] };
  const sentence =
    error.keyword === 'additionalProperties'
      ? `${at} has an unknown field "${params.additionalProperty}"`
      : error.keyword === 'required'
        ? `${at} is missing the required field "${params.missingProperty}"`
        : error.keyword === 'minProperties'
          ? `${at} must set at least one field`
          : error.keyword === 'enum'
            ? `${at} must be one of ${params.allowedValues?.join(', ')}`
            : `${at} ${error.message}`;
  return new AdminProblem('INVALID_REQUEST', `Invalid request: ${sentence}.`, `See ${ADMIN_DOCUMENT_PATH} for the fields this route takes; nothing was written.`);
}
