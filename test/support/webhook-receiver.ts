import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers one request: a status, headers and a body. */
export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 that records every request and answers as `answer` says
 * (204 by default; `no-answer` keeps the request waiting until the receiver closes).
 */
export async function startReceiver(answer: (request: ReceivedRequest) => ReceiverAnswer | 'no-answer' = () => ({ status: 204 })): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const request = { method: incoming.method ?? '', path: incoming.url ?? '/', headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
    requests.push(request);
    const answered = answer(request);
    if (answered === 'no-answer') return;
    outgoing.writeHead(answered.status, answered.headers ?? {}).end(answered.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
