import net from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent, for failure messages. */
  text: string;
}

/** Listens on a free loopback port (once) and returns it. */
export async function listeningPort(app: FastifyInstance): Promise<number> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as net.AddressInfo).port;
}

/**
 * Sends bytes exactly as given (however malformed), then reads until the server closes
 * the connection. Node's HTTP client would refuse to send most of what these tests send.
 */
export function rawExchange(port: number, request: string): Promise<RawResponse> {
  const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
  return readUntilClosed(socket);
}

/** Collects what the server sends until it closes the connection, and parses it as one response. */
export function readUntilClosed(socket: net.Socket): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A server that closes a connection whose request is still arriving may reset it
    // (TCP sends RST when unread data is left): that is a close too, and 'close' follows.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => resolve(parseResponse(Buffer.concat(chunks).toString())));
  });
}

function parseResponse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, end < 0 ? text.length : end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: end < 0 ? '' : text.slice(end + 4), text };
}
