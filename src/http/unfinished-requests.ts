import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';

/**
 * On shutdown, connections still sending their request (its headers or its body) get
 * this long to finish; then they are closed. Requests already received keep the whole
 * shutdown grace to be answered. Without this, a client trickling a body one byte at a
 * time would hold the drain until its request time-out.
 */
const UNFINISHED_REQUEST_GRACE_MS = 2000;

/**
 * Tracks each connection and the response it is working on, so a shutdown can tell a
 * request still arriving (closed after a short grace) from one being answered (left to
 * finish). A connection with no response under way is idle or still sending headers.
 */
export const closeUnfinishedRequestsOnShutdown = fp(
  async (app) => {
    const connections = new Set<Socket>();
    const responses = new WeakMap<Socket, ServerResponse>();
    app.server.on('connection', (socket: Socket) => {
      connections.add(socket);
      socket.once('close', () => connections.delete(socket));
    });
    app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      responses.set(request.socket, response);
    });

    app.addHook('preClose', async () => {
      const closeUnfinished = () => {
        for (const socket of connections) {
          const response = responses.get(socket);
          const answering = response !== undefined && !response.writableFinished && response.req.complete;
          if (!answering) socket.destroy();
        }
      };
      setTimeout(closeUnfinished, UNFINISHED_REQUEST_GRACE_MS).unref();
    });
  },
  { name: 'unfinished-requests' },
);
