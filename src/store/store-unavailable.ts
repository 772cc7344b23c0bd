/** Socket-level failures: the database host is down, unreachable or dropped us. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** SQLSTATEs of a server that is shutting down, starting up or out of connections (class 08 is added below). */
const SERVER_UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * The one SQLSTATE of class 08 that is not about the connection: protocol_violation, what
 * PostgreSQL answers a statement it cannot take (more than 65,535 bound parameters). The
 * same request would fail again, so a retry (503) would never end.
 */
const PROTOCOL_VIOLATION = '08P01';

/** What pg and pg-pool throw, without a code, when a connection cannot be made or was lost. */
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /is not queryable$/,
  /^Query read timeout$/,
];

/**
 * True when an error means "the database cannot be reached right now" rather than "this
 * query is wrong": the first is worth a 503 and a retry, the second is a bug (500).
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) {
    return code !== PROTOCOL_VIOLATION;
  }
  // Node reports a refused connection to a name with several addresses as an AggregateError.
  if (error instanceof AggregateError && error.errors.some(isStoreUnavailable)) return true;
  return CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message)) || isStoreUnavailable(error.cause);
}
