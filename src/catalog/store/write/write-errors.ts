/** A problem with one part of a write: a JSON path into the request, or a row of a bulk request. */
export interface WriteProblem {
  path: string;
  message: string;
}

/** A bulk row the write refused, and why (`code` is the refusal's kind, in capitals). */
export interface RowProblem {
  index: number;
  sku: string;
  code: 'UNKNOWN_SKU' | 'DUPLICATE_ROW' | 'UNKNOWN_REGION' | 'CURRENCY_MISMATCH' | 'UNKNOWN_CURRENCY' | 'EMPTY_ROW' | 'VERSION_MISMATCH';
  message: string;
}

/**
 * Why a catalog write changed nothing. The catalog knows no HTTP: whoever exposes the
 * write (the admin API) turns each kind into its status.
 */
export type WriteRefusal =
  | { kind: 'not_found' }
  /** The target's version is not the one the caller expected (If-Match), or it exists where it must not (If-None-Match). */
  | { kind: 'version_mismatch'; currentVersion: number | null }
  /** The write contradicts the state of another resource (a SKU of another product, a region's prices). */
  | { kind: 'conflict' }
  | { kind: 'invalid'; problems: WriteProblem[] }
  | { kind: 'invalid_rows'; rows: RowProblem[] };

export class CatalogWriteError extends Error {
  constructor(
    message: string,
    readonly refusal: WriteRefusal,
  ) {
    super(message);
    this.name = 'CatalogWriteError';
  }
}

/**
 * What a write expects of its target's current version (an HTTP `If-Match`): that it
 * exists in any version, or in one of these; `absent` (If-None-Match: *) that it does not exist.
 */
export type VersionCondition = 'any' | 'absent' | readonly number[];

/** Throws `version_mismatch` unless `current` (undefined: no such target) satisfies `condition`. */
export function checkVersion(what: string, current: number | undefined, condition: VersionCondition | undefined): void {
  if (condition === undefined) return;
  const satisfied =
    condition === 'absent' ? current === undefined : current !== undefined && (condition === 'any' || condition.includes(current));
  if (satisfied) return;
  const message =
    current === undefined
      ? `${what} does not exist, so it cannot match If-Match.`
      : condition === 'absent'
        ? `${what} already exists (version ${current}).`
        : `${what} is at version ${current}, not the version you sent in If-Match.`;
  throw new CatalogWriteError(message, { kind: 'version_mismatch', currentVersion: current ?? null });
}
