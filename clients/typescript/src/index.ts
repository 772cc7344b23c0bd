import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import { marketOperations, sandboxKeyOperations, type paths } from './openapi.js';

export type { components, operations, paths } from './openapi.js';

/** The market a catalog read is answered in; the service's defaults apply to what is left out. */
export type Market = Pick<NonNullable<paths['/public/v1/products']['get']['parameters']['query']>, 'country' | 'currency' | 'locale'>;

export interface VetrinaClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the service answers, e.g. `https://catalog.example.com` (no trailing path). */
  baseUrl: string;
  /**
   * A sandbox key (`sbx_test_...`, from `POST /sandbox/v1/keys`): sent as
   * `Authorization: Bearer <key>` on the operations that take one (carts, checkout,
   * UCP and ACP sessions), never on catalog reads. A request that sets its own
   * Authorization header keeps it.
   */
  sandboxKey?: string;
  /**
   * The market of every catalog read (products, lookup, categories, collections, the
   * change feed): added to the query of the operations that take it. A parameter the
   * request sets itself wins.
   */
  market?: Market;
}

/** The client of one Vetrina service: openapi-fetch's `GET`, `POST`... over the paths and schemas of its /openapi.json. */
export type VetrinaClient = Client<paths>;

/**
 * A typed client of the public catalog and the sandbox. Every call is checked against
 * the contract at compile time (paths, parameters, bodies) and answers
 * `{ data, error, response }`: `data` on a 2xx, `error` (the documented error body) otherwise.
 */
export function createVetrinaClient(options: VetrinaClientOptions): VetrinaClient {
  const { sandboxKey, market, ...clientOptions } = options;
  const client = createClient<paths>(clientOptions);
  if (sandboxKey !== undefined) client.use(sandboxKeyHeader(sandboxKey));
  if (market !== undefined) client.use(marketQuery(market));
  return client;
}

/** Whether `operations` lists the request's operation. */
const takes = (operations: Readonly<Record<string, readonly string[]>>, schemaPath: string, request: Request) =>
  operations[schemaPath]?.includes(request.method) === true;

function sandboxKeyHeader(sandboxKey: string): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      if (takes(sandboxKeyOperations, schemaPath, request) && !request.headers.has('authorization')) {
        request.headers.set('authorization', `Bearer ${sandboxKey}`);
      }
      return request;
    },
  };
}

function marketQuery(market: Market): Middleware {
  const entries = Object.entries(market).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return {
    onRequest({ request, schemaPath }) {
      if (!takes(marketOperations, schemaPath, request)) return request;
      const url = new URL(request.url);
      for (const [name, value] of entries) if (!url.searchParams.has(name)) url.searchParams.set(name, value);
      return new Request(url, request);
    },
  };
}
