import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** What the delivery benchmarks run against a service: a webhook receiver and a change stream client. */

const STREAM_RECONNECT_MS = 200;

export interface WebhookEvent {
  id: string;
  type: string;
  catalog_version: number;
  data: Record<string, unknown>;
}

export interface ReceiverBehaviour {
  /** The share of requests answered 500. */
  failRate: number;
  /** The share of requests handled but answered only after `slowAnswerMs`. */
  slowRate: number;
  slowAnswerMs: number;
}

export interface Receiver {
  url: string;
  /** The subscription's secret, once subscribed: requests before that fail their verification. */
  secret?: string;
  /** Each event id accepted (answered 2xx, or handled and answered late): how often, and when first (performance.now()). */
  received: Map<string, { count: number; event: WebhookEvent; at: number }>;
  requests: number;
  refused: number;
  slow: number;
  signatureFailures: number;
  close(): void;
}

/** A receiver on 127.0.0.1: verifies every request's signature (standardwebhooks), then fails, delays or accepts it at the given rates. */
export async function startReceiver(behaviour: ReceiverBehaviour): Promise<Receiver> {
  const server = createServer();
  const receiver: Receiver = {
    url: '',
    received: new Map(),
    requests: 0,
    refused: 0,
    slow: 0,
    signatureFailures: 0,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
  server.on('request', (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.requests++;
      let event: WebhookEvent;
      try {
        if (!receiver.secret) throw new Error('no secret yet');
        event = new Webhook(receiver.secret).verify(Buffer.concat(chunks).toString('utf8'), request.headers as Record<string, string>) as WebhookEvent;
      } catch {
        receiver.signatureFailures++;
        response.writeHead(400).end();
        return;
      }
      const roll = Math.random();
      if (roll < behaviour.failRate) {
        receiver.refused++;
        response.writeHead(500).end();
        return;
      }
      const at = performance.now();
      const accept = () => {
        const seen = receiver.received.get(event.id);
        if (seen) seen.count++;
        else receiver.received.set(event.id, { count: 1, event, at });
        if (!response.destroyed) response.writeHead(204).end();
      };
      if (roll < behaviour.failRate + behaviour.slowRate) {
        // Handled, but answered after the sender gave up: it retries, and the receiver sees the event again.
        receiver.slow++;
        setTimeout(accept, behaviour.slowAnswerMs);
      } else accept();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}

export interface StreamClient {
  reconnects: number;
  close(): void;
}

/**
 * Follows `base`'s SSE change stream in the market of `query` (from `since` when given,
 * else from now), calling `onEntry` with each feed entry and when it came; resumes with
 * Last-Event-ID when the connection drops.
 */
export function followStream(base: string, query: string, since: string | undefined, onEntry: (entry: any, at: number) => void): StreamClient {
  const controller = new AbortController();
  const client: StreamClient = { reconnects: 0, close: () => controller.abort() };
  let lastEventId = since;
  void (async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(`${base}/public/v1/changes/stream?${query}`, {
          headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId },
          signal: controller.signal,
        });
        if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
        let buffer = '';
        for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const fields = buffer.slice(0, end).split('\n');
            buffer = buffer.slice(end + 2);
            const id = fields.find((line) => line.startsWith('id:'))?.slice(3).trim();
            const data = fields.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n');
            if (id === undefined || !data) continue;
            lastEventId = id;
            onEntry(JSON.parse(data), performance.now());
          }
        }
      } catch {
        // Dropped or refused: resumed below from the last event received.
      }
      if (controller.signal.aborted) break;
      client.reconnects++;
      await new Promise((resolve) => setTimeout(resolve, STREAM_RECONNECT_MS));
    }
  })();
  return client;
}
