import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { ChangeFeedConfig } from '../../../config.js';
import { sendPrepared } from '../../../http/prepared-body.js';
import { MAX_FEED_CURSOR_LENGTH, type ChangeFeed } from '../../queries/change-feed.js';
import { requestIdTail } from '../answers.js';
import { EVENT_STREAM, STREAM_PAGE, type ChangeStreams } from '../change-stream.js';
import { changeFeedFields, marketFields, sinceField } from '../query-schemas.js';
import { catalogSchemaError, errorResponse, type CatalogRouteKit } from './shared.js';

const FeedQuery = Type.Object(changeFeedFields);
const StreamQuery = Type.Object({ since: sinceField, ...marketFields });

const EXPIRED = errorResponse(
  'CHANGES_EXPIRED: the cursor is older than the change log keeps. Resynchronise: take the cursor of now (no since), read the products again, then follow from that cursor.',
);
const INVALID = errorResponse('REGION_NOT_FOUND for an invalid market; INVALID_QUERY for an invalid since or limit');

/** What the change routes need beyond every catalog route's kit. */
export interface ChangeRouteKit extends CatalogRouteKit {
  feed: ChangeFeed;
  streams: ChangeStreams;
  settings: ChangeFeedConfig;
}

/** GET /public/v1/changes (the change feed) and GET /public/v1/changes/stream (the same as Server-Sent Events); docs/changes.md. */
export function changeRoutes(app: FastifyInstance, { answers, rateLimit, responses, feed, streams, settings }: ChangeRouteKit): void {
  app.get<{ Querystring: Static<typeof FeedQuery> }>(
    '/v1/changes',
    {
      schema: {
        operationId: 'listCatalogChanges',
        tags: ['catalog'],
        summary: 'Catalog changes since a cursor',
        security: [],
        description: `The catalog's changes after \`since\`, oldest first, each with the product's id and handle, what changed (kinds) and the product as GET /public/v1/products renders it in the resolved market now (null when it is no longer served). Walking \`next_cursor\` sees every change once, in order. Without \`since\`, answers the cursor of now and no changes: read the list, then follow the feed from that cursor. The change log keeps changes for ${settings.retentionHours} hours on this deployment; an older cursor is CHANGES_EXPIRED (410). Changes to draft products are not listed; a change to the regions alone lists nothing (read the list again in the markets concerned).`,
        querystring: FeedQuery,
        response: {
          200: responses.ok('The changes after the cursor', Type.Ref('ChangeFeed')),
          304: responses.notModified,
          400: INVALID,
          410: EXPIRED,
          429: responses.rateLimited,
          500: errorResponse('INTERNAL_ERROR: temporary failure'),
        },
      },
      schemaErrorFormatter: catalogSchemaError,
      onRequest: rateLimit,
      // Prepared answers carry their compressed forms.
      compress: false,
    },
    async (request, reply) => sendPrepared(request, reply, await answers.changes(request.query), requestIdTail(request.id), answers.caching),
  );

  app.get<{ Querystring: Static<typeof StreamQuery>; Headers: { 'last-event-id'?: string } }>(
    '/v1/changes/stream',
    {
      schema: {
        operationId: 'streamCatalogChanges',
        tags: ['catalog'],
        summary: 'Catalog changes as Server-Sent Events',
        security: [],
        description: `The change feed as a stream of Server-Sent Events (text/event-stream, for EventSource): each change is one event whose id is its cursor and whose data is the feed entry (ChangeFeedEntry) rendered in the resolved market. Starts after Last-Event-ID (sent by EventSource when it reconnects), else after \`since\`, else now. A comment line is sent every ${settings.heartbeatSeconds} seconds. A change made through any instance reaches every stream within about a second. Each client IP may hold ${settings.maxStreamsPerClient} streams at once (TOO_MANY_STREAMS, 429, past that) and an instance ${settings.maxStreams} (STREAMS_UNAVAILABLE, 503). Opening a stream counts once against the catalog rate limit. Streams end when the instance shuts down: reconnect with Last-Event-ID.`,
        querystring: StreamQuery,
        headers: Type.Object({
          'last-event-id': Type.Optional(
            Type.String({ maxLength: MAX_FEED_CURSOR_LENGTH, description: 'The id of the last event received; wins over `since`. EventSource sends it when it reconnects.' }),
          ),
        }),
        response: {
          200: {
            description: 'The stream: `id: <cursor>` and `data: <ChangeFeedEntry as JSON>` per change, and comment lines as heartbeats.',
            content: { 'text/event-stream': { schema: Type.String() } },
          },
          400: INVALID,
          410: EXPIRED,
          429: errorResponse('TOO_MANY_STREAMS: this client holds as many streams as it may; RATE_LIMITED: the catalog rate limit'),
          500: errorResponse('INTERNAL_ERROR: temporary failure'),
          503: errorResponse('STREAMS_UNAVAILABLE: this instance holds as many streams as it may'),
        },
      },
      schemaErrorFormatter: catalogSchemaError,
      onRequest: rateLimit,
      compress: false,
    },
    async (request, reply) => {
      const { since, ...market } = request.query;
      const resumeAfter = request.headers['last-event-id'] || since;
      // The first page is read before the stream opens: an invalid market or cursor, or an expired one, is answered as a plain error.
      const first = await feed.changes({ ...market, since: resumeAfter, limit: STREAM_PAGE });
      // HEAD checks the request as GET would, without opening a stream.
      if (request.method === 'HEAD') return reply.type(EVENT_STREAM).header('cache-control', 'no-store').send();
      streams.open(request, reply, { market, first });
      return reply;
    },
  );
}
