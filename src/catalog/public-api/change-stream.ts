import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { ChangeFeedConfig } from '../../config.js';
import { serializeJson } from '../../http/json-serializer.js';
import { throttledWarning } from '../../lib/throttled-warning.js';
import { feedCursor, parseFeedCursor, type ChangeFeed, type ChangeFeedEntry, type ChangeFeedPage, type FeedPosition } from '../queries/change-feed.js';
import type { MarketInput } from '../queries/market.js';
import type { CatalogReadModel } from '../read-model/read-model.js';
import { catalogProblem } from './errors.js';

export const EVENT_STREAM = 'text/event-stream; charset=utf-8';

/** Changes read per page while a stream catches up (the first one before it opens): the list's largest page. */
export const STREAM_PAGE = 20;

/** Where a stream starts: its market, and the first page already read (which checked the cursor), or the position of now. */
export interface StreamStart {
  market: MarketInput;
  first: ChangeFeedPage;
}

/**
 * The change streams open on this instance (GET /public/v1/changes/stream): each sends
 * the change feed as Server-Sent Events from its position on. They follow the read
 * model, which applies every change made anywhere within a second (catalog/read-model/
 * change-follower.ts): each time it serves newer changes, every stream reads the feed
 * after its own position and sends what it has not sent. Streams are capped per client
 * IP and in all (CHANGE_STREAM_MAX_PER_CLIENT, CHANGE_STREAM_MAX), send a comment line
 * every CHANGE_STREAM_HEARTBEAT_SECONDS, and are ended when the service shuts down.
 */
export class ChangeStreams {
  readonly #open = new Set<ChangeStream>();
  readonly #perClient = new Map<string, number>();
  readonly #stopFollowing: () => void;
  readonly #heartbeat: NodeJS.Timeout;
  readonly #failed: (error: unknown) => void;
  #closed = false;

  constructor(
    readModel: CatalogReadModel,
    private readonly feed: ChangeFeed,
    private readonly settings: ChangeFeedConfig,
    log: FastifyBaseLogger,
  ) {
    this.#failed = throttledWarning(log, 'a change stream could not read the change feed; it was closed and its client resumes on reconnecting');
    this.#stopFollowing = readModel.onApplied(() => {
      for (const stream of this.#open) stream.pump();
    });
    this.#heartbeat = setInterval(() => {
      for (const stream of this.#open) stream.write(': heartbeat\n\n');
    }, settings.heartbeatSeconds * 1000);
    this.#heartbeat.unref();
  }

  /**
   * Takes over the response and keeps it open as an event stream, or refuses when the
   * client (TOO_MANY_STREAMS, 429) or this instance (STREAMS_UNAVAILABLE, 503) holds as
   * many streams as it may.
   */
  open(request: FastifyRequest, reply: FastifyReply, start: StreamStart): void {
    const held = this.#perClient.get(request.ip) ?? 0;
    if (held >= this.settings.maxStreamsPerClient) {
      throw catalogProblem(
        'TOO_MANY_STREAMS',
        `This client already holds ${held} change streams, the most one client may hold open.`,
        'Close a stream you no longer read, or follow several markets with GET /public/v1/changes.',
      );
    }
    // A request whose first page was read while the service began shutting down gets no stream that would hold the drain.
    if (this.#closed) throw catalogProblem('STREAMS_UNAVAILABLE', 'This instance is shutting down.', 'Reconnect: another instance answers.');
    if (this.#open.size >= this.settings.maxStreams) {
      throw catalogProblem('STREAMS_UNAVAILABLE', 'This instance holds as many change streams as it may.', 'Retry later, or poll GET /public/v1/changes meanwhile.');
    }
    // onSend hooks do not run for a hijacked reply: the headers set so far (request id, CORS, rate limit) are copied.
    reply.hijack();
    const raw = reply.raw;
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
    // Proxies such as nginx would otherwise hold the events back in their buffers.
    raw.writeHead(200, { 'content-type': EVENT_STREAM, 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    raw.write(': connected\n\n');
    const stream = new ChangeStream(raw, this.feed, start.market, parseFeedCursor(start.first.next_cursor), this.#failed);
    this.#open.add(stream);
    this.#perClient.set(request.ip, held + 1);
    raw.once('close', () => {
      this.#open.delete(stream);
      const left = (this.#perClient.get(request.ip) ?? 1) - 1;
      if (left > 0) this.#perClient.set(request.ip, left);
      else this.#perClient.delete(request.ip);
    });
    stream.send(start.first.changes);
    // The rest of a long catch-up, and any change applied while the first page was read.
    stream.pump();
  }

  /** The streams this instance holds open. */
  get openCount(): number {
    return this.#open.size;
  }

  /** Ends every stream (shutdown): clients reconnect elsewhere with Last-Event-ID. */
  close(): void {
    this.#closed = true;
    this.#stopFollowing();
    clearInterval(this.#heartbeat);
    for (const stream of this.#open) stream.end();
  }
}

/** One open stream: its position, and at most one read of the feed at a time. */
class ChangeStream {
  #reading: Promise<void> | undefined;
  #again = false;

  constructor(
    private readonly raw: ServerResponse,
    private readonly feed: ChangeFeed,
    private readonly market: MarketInput,
    private position: FeedPosition,
    private readonly failed: (error: unknown) => void,
  ) {}

  /** Sends what the feed holds after this stream's position; a call during a read is answered by one more read after it. */
  pump(): void {
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = this.#readAll()
      .catch((error: unknown) => {
        this.failed(error);
        this.end();
      })
      .finally(() => {
        this.#reading = undefined;
        if (this.#again && this.open) {
          this.#again = false;
          this.pump();
        }
      });
  }

  async #readAll(): Promise<void> {
    for (;;) {
      this.#again = false;
      const page = await this.feed.changes({ ...this.market, since: feedCursor(this.position), limit: STREAM_PAGE });
      if (!this.open) return;
      this.send(page.changes);
      this.position = parseFeedCursor(page.next_cursor);
      // A slow reader holds the reading, not memory: the next page waits until this one is taken.
      if (this.raw.writableNeedDrain) await drainedOrClosed(this.raw);
      if (!page.has_more) return;
    }
  }

  /** Each change is one event: its id is the change's cursor, its data the feed entry. */
  send(changes: readonly ChangeFeedEntry[]): void {
    for (const change of changes) this.write(`id: ${change.cursor}\ndata: ${serializeJson(change)}\n\n`);
  }

  /** Nothing is written once the stream ended (a shutdown) or its client left: a write after the end would be an error event. */
  write(text: string): void {
    if (this.open) this.raw.write(text);
  }

  get open(): boolean {
    return !this.raw.writableEnded && !this.raw.destroyed;
  }

  end(): void {
    this.raw.end();
  }
}

/**
 * Resolves when `raw` drains or closes, and leaves no listener behind either way:
 * Promise.race over two `once` calls kept the loser's listener, one more `close` listener
 * on a long-lived stream for every wait on a slow reader.
 */
function drainedOrClosed(raw: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      raw.off('drain', settle);
      raw.off('close', settle);
      resolve();
    };
    raw.on('drain', settle);
    raw.on('close', settle);
  });
}
