import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { useTestApp } from '../support/test-app.js';

/**
 * compose.yaml runs nowhere here (no Docker daemon), so it is checked as Compose would
 * read it: against the Compose Specification's JSON Schema (compose-spec/compose-spec,
 * schema/compose-spec.json, as the dclint package ships it), then for what a schema
 * cannot know: that Vetrina reads every setting the file gives it and accepts their
 * values, that the health check's path answers, and that nginx sends to every instance.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const composeText = readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8');
/** Merge keys (`<<: *vetrina`) are YAML 1.1, which Compose reads. */
const compose = parse(composeText, { merge: true }) as ComposeFile;

interface ComposeService {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
}
interface ComposeFile {
  services: Record<string, ComposeService>;
}

/** The secrets an operator provides, in the shapes Vetrina accepts. */
const OPERATOR_ENV: Record<string, string> = {
  POSTGRES_PASSWORD: 'a-database-password',
  ADMIN_TOKENS: `ops:${'t'.repeat(32)}`,
  METRICS_TOKEN: 'm'.repeat(16),
};

/** Compose's `${NAME}`, `${NAME:-default}` and `${NAME:?message}` against the operator's environment. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, kind?: string, word?: string) => {
    const given = env[name];
    if (given) return given;
    if (kind === '?') throw new Error(`${name} unset: ${word}`);
    return kind === '-' ? (word ?? '') : '';
  });
}

const vetrinaServices = Object.entries(compose.services).filter(([, service]) => service.build === '.');
/** The port the image's ENV sets and no service overrides (Dockerfile: PORT=3000). */
const INSTANCE_PORT = 3000;

describe('compose.yaml', () => {
  it('is valid under the Compose Specification JSON Schema (draft-07), which refuses a misspelt key', () => {
    const require = createRequire(import.meta.url);
    const schemaPath = path.join(path.dirname(require.resolve('dclint/package.json')), 'schemas', 'compose.schema.json');
    const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as { $schema: string; $id: string; title: string };
    assert.equal(schema.$id, 'compose_spec.json');
    assert.equal(schema.title, 'Compose Specification');
    const draft07 = require('ajv/dist/refs/json-schema-draft-07.json') as object;
    // The upstream schema names its meta-schema by the https address, Ajv's draft-07 by http;
    // it also puts object keywords beside oneOf branches without a type, which strictTypes would log.
    const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strictTypes: false });
    ajv.addMetaSchema({ ...draft07, $id: schema.$schema });
    const validate = ajv.compile(schema);
    assert.equal(validate(compose), true, ajv.errorsText(validate.errors));

    const misspelt = structuredClone(compose);
    (misspelt.services['vetrina-1'] as Record<string, unknown>).healthchek = compose.services['vetrina-1']!.healthcheck;
    assert.equal(validate(misspelt), false);
  });

  it('runs two instances of the one image built from the Dockerfile, on PostgreSQL and Redis, each started once they are healthy', () => {
    assert.deepEqual(
      vetrinaServices.map(([name]) => name),
      ['vetrina-1', 'vetrina-2'],
    );
    for (const [name, service] of vetrinaServices) {
      assert.equal(service.image, 'vetrina:local', name);
      const env = service.environment!;
      assert.match(env.DATABASE_URL!, /@postgres:5432\//, name);
      assert.equal(env.REDIS_URL, 'redis://redis:6379', name);
      for (const dependency of ['postgres', 'redis']) {
        assert.equal(service.depends_on?.[dependency]?.condition, 'service_healthy', `${name} waits for ${dependency}`);
        assert.ok(compose.services[dependency]!.healthcheck, `${dependency} has a health check`);
      }
    }
  });

  it('gives the instances only settings src/config.ts reads, with values it accepts, secrets only from the environment', () => {
    for (const [name, service] of vetrinaServices) {
      const env = Object.fromEntries(Object.entries(service.environment!).map(([key, value]) => [key, interpolate(value, OPERATOR_ENV)]));
      const read = new Set<string>();
      const recording = new Proxy(env, {
        get: (target, key: string) => {
          read.add(key);
          return target[key];
        },
      });
      const config = loadConfig(recording);
      assert.deepEqual(
        Object.keys(env).filter((key) => !read.has(key)),
        [],
        `${name} sets settings Vetrina does not read`,
      );
      assert.equal(config.admin.tokens.length, 1);
      assert.deepEqual(config.trustProxy, ['uniquelocal']);
      assert.equal(config.tracing.endpoint, undefined, 'tracing is off unless the operator sets an endpoint');
      for (const secret of ['ADMIN_TOKENS', 'METRICS_TOKEN']) {
        assert.match(service.environment![secret]!, /^\$\{\w+:\?[^}]+\}$/, `${name}'s ${secret} comes from the environment, required with a message`);
      }
      assert.throws(() => interpolate(service.environment!.DATABASE_URL!, {}), /POSTGRES_PASSWORD unset: set POSTGRES_PASSWORD/);
    }
  });

  describe("the instances' health check", () => {
    const shared = useTestApp();

    it('asks a path Vetrina answers 200 when ready', async () => {
      for (const [name, service] of vetrinaServices) {
        const url = /fetch\('([^']+)'\)/.exec(service.healthcheck!.test.join(' '))?.[1];
        assert.ok(url, `${name}'s health check fetches a URL`);
        const { pathname, port } = new URL(url);
        assert.equal(pathname, '/readyz');
        assert.equal(Number(port), INSTANCE_PORT);
        const response = await shared.client.get(pathname);
        assert.equal(response.statusCode, 200, response.body);
      }
    });
  });

  it('puts nginx in front of every instance, started once they are healthy, with the change stream unbuffered and long-lived', () => {
    const nginx = compose.services.nginx!;
    assert.match(nginx.image!, /^nginx:/);
    const mount = nginx.volumes!.find((volume) => volume.endsWith(':/etc/nginx/conf.d/default.conf:ro'));
    assert.ok(mount, 'the repository config is mounted read-only');
    const conf = readFileSync(path.join(ROOT, mount.split(':')[0]!), 'utf8');
    const upstream = /upstream vetrina \{([^}]*)\}/.exec(conf)?.[1] ?? '';
    const servers = [...upstream.matchAll(/^\s*server\s+(\S+)/gm)].map((match) => match[1]);
    assert.deepEqual(
      servers,
      vetrinaServices.map(([name]) => `${name}:${INSTANCE_PORT}`),
    );
    for (const [name] of vetrinaServices) assert.equal(nginx.depends_on?.[name]?.condition, 'service_healthy', `nginx waits for ${name}`);

    const stream = /location = \/public\/v1\/changes\/stream \{([^}]*)\}/.exec(conf)?.[1] ?? '';
    assert.match(stream, /proxy_pass http:\/\/vetrina;/);
    assert.match(stream, /proxy_buffering off;/);
    assert.match(stream, /proxy_read_timeout 1h;/);
    assert.match(conf, /proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });
});
