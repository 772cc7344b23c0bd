import http from 'node:http';

export interface StreamEvent {
  id: string | undefined;
  data: any;
}

/**
 * A Server-Sent Events client over Node's plain HTTP client, reading the stream as it
 * arrives: the events (id and JSON data) and the comment lines (heartbeats) in order.
 */
export class EventStreamClient {
  readonly events: StreamEvent[] = [];
  readonly comments: string[] = [];
  #buffer = '';
  #waiters: (() => void)[] = [];
  #closed = false;

  private constructor(
    readonly status: number,
    readonly headers: http.IncomingHttpHeaders,
    readonly body: string | undefined,
    private readonly request: http.ClientRequest,
    response: http.IncomingMessage,
  ) {
    if (status !== 200) return;
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.#take(chunk));
    response.on('close', () => {
      this.#closed = true;
      this.#wake();
    });
  }

  /** Opens the stream; an answer other than 200 is read whole (a JSON error). */
  static open(port: number, path: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
    return new Promise((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path, headers: { accept: 'text/event-stream', ...headers } }, (response) => {
        if (response.statusCode === 200) {
          resolve(new EventStreamClient(200, response.headers, undefined, request, response));
          return;
        }
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve(new EventStreamClient(response.statusCode ?? 0, response.headers, body, request, response)));
      });
      request.on('error', reject);
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Resolves once `done` holds (checked after everything received), or rejects when the stream closes first. */
  async until(done: (stream: EventStreamClient) => boolean, what: string): Promise<void> {
    while (!done(this)) {
      if (this.#closed) throw new Error(`the stream closed before ${what}; events: ${JSON.stringify(this.events.map((event) => event.id))}`);
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Resolves when the server ends the stream. */
  async whenClosed(): Promise<void> {
    while (!this.#closed) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  close(): void {
    this.request.destroy();
  }

  #take(chunk: string): void {
    this.#buffer += chunk;
    let end: number;
    while ((end = this.#buffer.indexOf('\n\n')) >= 0) {
      const block = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
        else if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length > 0) this.events.push({ id, data: JSON.parse(data.join('\n')) });
    }
    this.#wake();
  }

  #wake(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }
}
