import net from 'node:net';

/**
 * A TCP forwarder between the service and a real PostgreSQL or Redis that a test can
 * cut and restore, to simulate an outage without touching the machine's services. While
 * cut, open connections are reset and new ones are reset as soon as they arrive.
 */
export class TcpProxy {
  readonly #connections = new Set<net.Socket>();
  #cut = false;

  private constructor(
    private readonly server: net.Server,
    private readonly target: { host: string; port: number },
  ) {
    server.on('connection', (client) => this.#forward(client));
  }

  /** Listens on a free loopback port and forwards to the host and port of `targetUrl`. */
  static async start(targetUrl: string): Promise<TcpProxy> {
    const url = new URL(targetUrl);
    const proxy = new TcpProxy(net.createServer(), { host: url.hostname, port: Number(url.port) });
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String((this.server.address() as net.AddressInfo).port);
    return proxied.toString();
  }

  cut(): void {
    this.#cut = true;
    for (const socket of this.#connections) socket.resetAndDestroy();
    this.#connections.clear();
  }

  restore(): void {
    this.#cut = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  #forward(client: net.Socket): void {
    if (this.#cut) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(this.target.port, this.target.host);
    for (const [socket, peer] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.#connections.add(socket);
      socket.pipe(peer);
      socket.on('error', () => peer.destroy());
      socket.on('close', () => {
        this.#connections.delete(socket);
        peer.destroy();
      });
    }
  }
}
