import { createServer, type Server } from 'node:http';
import { after, before } from 'node:test';
import { loadConfig, type UcpConfig } from '../../src/config.js';
import { UCP_VERSION } from '../../src/ucp/version.js';

/**
 * What a test's platform looks like to the service: its profile served by a local HTTP
 * server on 127.0.0.1, which the service fetches under UCP_ALLOW_LOOPBACK_HTTP (the
 * test config of {@link ucpTestConfig}).
 */

/** The UCP settings of a test app: http profiles on loopback accepted, unless overridden. */
export function ucpTestConfig(overrides: Partial<UcpConfig> = {}): UcpConfig {
  return { ...loadConfig().ucp, allowLoopbackHttp: true, ...overrides };
}

/** The `UCP-Agent` header naming a platform profile. */
export const ucpAgent = (profileUrl: string) => `profile="${profileUrl}"`;

/** A capability entry of a platform profile at `version`, as the release publishes its capabilities. */
export function platformCapability(name: string, version = UCP_VERSION, extra: object = {}): object {
  const page = name.replace(/^dev\.ucp\.shopping\./, '').replace(/\./g, '/').replace(/_/g, '-');
  const file = name.replace(/^dev\.ucp\.shopping\./, '').replace(/\./g, '_');
  return { version, spec: `https://ucp.dev/${version}/specification/${page}`, schema: `https://ucp.dev/${version}/schemas/shopping/${file}.json`, ...extra };
}

/** Every capability this service serves, as a platform would declare them all. */
export const ALL_CAPABILITIES = [
  'dev.ucp.shopping.catalog.search',
  'dev.ucp.shopping.catalog.lookup',
  'dev.ucp.shopping.cart',
  'dev.ucp.shopping.checkout',
  'dev.ucp.shopping.order',
  'dev.ucp.shopping.fulfillment',
  'dev.ucp.shopping.discount',
  'dev.ucp.shopping.buyer_consent',
];

const EXTENDS: Record<string, string | string[]> = {
  'dev.ucp.shopping.fulfillment': 'dev.ucp.shopping.checkout',
  'dev.ucp.shopping.discount': ['dev.ucp.shopping.cart', 'dev.ucp.shopping.checkout'],
  'dev.ucp.shopping.buyer_consent': 'dev.ucp.shopping.checkout',
};

export interface PlatformProfileOptions {
  version?: string;
  /** The capabilities it declares (default: all of ALL_CAPABILITIES, at `version`). */
  capabilities?: Record<string, object[]>;
  /** Its order capability's config.webhook_url. */
  webhookUrl?: string;
}

/** A valid platform profile (overview.md, Platform Profile). */
export function platformProfile({ version = UCP_VERSION, capabilities, webhookUrl }: PlatformProfileOptions = {}): object {
  const declared =
    capabilities ??
    Object.fromEntries(
      ALL_CAPABILITIES.map((name) => [
        name,
        [
          platformCapability(name, version, {
            ...(EXTENDS[name] && { extends: EXTENDS[name] }),
            ...(name === 'dev.ucp.shopping.order' && webhookUrl !== undefined && { config: { webhook_url: webhookUrl } }),
          }),
        ],
      ]),
    );
  return {
    ucp: {
      version,
      services: {
        'dev.ucp.shopping': [
          { version, spec: `https://ucp.dev/${version}/specification/overview`, transport: 'rest', schema: `https://ucp.dev/${version}/services/shopping/rest.openapi.json` },
          { version, spec: `https://ucp.dev/${version}/specification/overview`, transport: 'mcp', schema: `https://ucp.dev/${version}/services/shopping/mcp.openrpc.json` },
        ],
      },
      capabilities: declared,
      payment_handlers: {},
    },
    signing_keys: [{ kid: 'platform_test', kty: 'EC', crv: 'P-256', x: 'MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4', y: '4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM', use: 'sig', alg: 'ES256' }],
  };
}

/** How the test server answers a path: a JSON body (or raw text), a status, headers. */
export interface ServedAnswer {
  status?: number;
  body?: unknown;
  /** Sent as it is instead of `body` as JSON. */
  raw?: string;
  headers?: Record<string, string>;
  /** Never answers (a hanging platform). */
  hang?: boolean;
}

export interface PlatformServer {
  /** `http://127.0.0.1:<port><path>`. */
  url(path: string): string;
  port(): number;
  /** What `path` answers from now on (404 until set). */
  serve(path: string, answer: ServedAnswer): void;
  /** How many requests `path` got. */
  hits(path: string): number;
}

/** A platform profile server for the enclosing `describe` (or file): started before its first test, closed after its last. */
export function usePlatformServer(): PlatformServer {
  const answers = new Map<string, ServedAnswer>();
  const hits = new Map<string, number>();
  let server: Server | undefined;
  let port = 0;
  before(async () => {
    server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0]!;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const answer = answers.get(path);
      if (answer?.hang) return;
      if (!answer) return void response.writeHead(404).end();
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.raw ?? JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    port = (server!.address() as { port: number }).port;
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    port: () => port,
    serve: (path, answer) => void answers.set(path, answer),
    hits: (path) => hits.get(path) ?? 0,
  };
}
