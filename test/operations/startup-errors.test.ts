import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../support/server-process.js';

/** sysexits' EX_CONFIG, the server's exit code for a setting that stops the start. */
const EXIT_CONFIG = 78;

describe('start-up errors name the setting and the fix, before anything is created', () => {
  let work: string;
  /** A DATA_DIR that does not exist yet: a start that fails must not create it. */
  let dataDir: string;
  /** Each start on the embedded store, on a port of its own, with the rest as the test runs. */
  let env: Record<string, string>;

  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'vetrina-startup-'));
    dataDir = path.join(work, 'data');
    env = { DATABASE_URL: '', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' };
  });
  after(() => rm(work, { recursive: true, force: true }));

  const assertNothingCreated = (output: string) => {
    assert.equal(existsSync(dataDir), false, `DATA_DIR was created:\n${output}`);
    assert.doesNotMatch(output, /catalog read model loaded|Vetrina is ready/, 'the catalog was loaded first');
    assert.doesNotMatch(output, /^\s+at /m, 'a stack trace');
  };

  it('an unreachable DATABASE_URL: names it, keeps its password out, and says how to use the embedded store instead', async () => {
    const closed = net.createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as net.AddressInfo).port;
    closed.close();
    await once(closed, 'close');

    const result = await runCli('src/server.ts', [], { ...env, DATABASE_URL: `postgres://vetrina:s3cret-word@127.0.0.1:${port}/catalog` });
    assert.equal(result.code, EXIT_CONFIG, result.output);
    assert.match(result.output, new RegExp(`DATABASE_URL=postgres://vetrina:\\*\\*\\*@127\\.0\\.0\\.1:${port}/catalog: cannot use this PostgreSQL \\(.*ECONNREFUSED`));
    assert.match(result.output, /unset it to keep the catalog in the embedded SQLite file/);
    assert.doesNotMatch(result.output, /s3cret-word/);
    assertNothingCreated(result.output);
  });

  // One start with both problems checks each message in full and that neither stops the
  // other being said: a start per problem cost a server process each.
  it('a busy port and a CATALOG_SEED file that does not exist: each named with its fix, both at once, before the store is opened or the catalog loaded', async () => {
    const busy = net.createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    const port = (busy.address() as net.AddressInfo).port;
    const missing = path.join(work, 'no-such-catalog.json');
    try {
      const result = await runCli('src/server.ts', [], { ...env, PORT: String(port), CATALOG_SEED: missing });
      assert.equal(result.code, EXIT_CONFIG, result.output);
      assert.match(result.output, /Vetrina cannot start:\n {2}- PORT=.*\n {2}- CATALOG_SEED=/);
      assert.match(result.output, new RegExp(`PORT=${port}: 127\\.0\\.0\\.1:${port} is already in use .*; stop it, or set PORT to a free port`));
      assert.match(result.output, new RegExp(`CATALOG_SEED=${missing}: no such file; set CATALOG_SEED to the path of a catalog file .*, to demo .*, or to none`));
      assertNothingCreated(result.output);
    } finally {
      busy.close();
    }
  });

  it('a CATALOG_SEED file that is no catalog: names it and its problems, and leaves no database behind', async () => {
    const invalid = path.join(work, 'invalid-catalog.json');
    await writeFile(invalid, JSON.stringify({ version: 1, regions: [], products: [{ handle: 'x' }] }));
    const result = await runCli('src/server.ts', [], { ...env, CATALOG_SEED: invalid });
    assert.equal(result.code, 1, result.output);
    assert.match(result.output, new RegExp(`CATALOG_SEED=${invalid}: Catalog file ${invalid} is invalid`));
    assert.match(result.output, /Correct the file \(docs\/catalog-format\.md\), or set CATALOG_SEED to demo or none\./);
    assert.equal(existsSync(path.join(dataDir, 'vetrina.sqlite')), false, result.output);
    assert.equal(existsSync(path.join(dataDir, 'vetrina.sqlite-wal')), false, result.output);
    assert.doesNotMatch(result.output, /^\s+at /m, 'a stack trace');
  });
});
