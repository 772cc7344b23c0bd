import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { importCatalogCommand } from '../../src/cli/import-catalog-command.js';
import { assertProblem, getOk } from '../support/catalog-assertions.js';
import { catalog, day, product, tempDir, variant, type TempDir } from '../support/catalog-builder.js';
import { dumpCatalog } from '../support/catalog-store.js';
import type { ContractClient } from '../support/contract.js';
import { INVALID_CATALOG, INVALID_CATALOG_PROBLEMS } from '../support/invalid-catalog.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { adminClient, withAdmin } from '../support/admin.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = path.join(ROOT, 'src/cli/import-catalog.ts');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const SEED = catalog([
  product('keep-me', { created_at: day(1) }),
  product('update-me', { created_at: day(2), variants: [variant('UPD', { prices: [{ currency: 'EUR', amount: 100 }] })] }),
]);

/** `update-me` repriced and `keep-me` left out. */
const CHANGED = catalog([
  product('update-me', { created_at: day(2), variants: [variant('UPD', { prices: [{ currency: 'EUR', amount: 250 }] })] }),
]);

/**
 * `npm run catalog:import` writing into the same store as the test app (the SQLite file
 * under DATA_DIR, or the test's PostgreSQL database) through a store of its own: once as
 * another process, as operators run it, and otherwise as the command that process runs,
 * in this one (a process costs seconds here).
 */
describe('catalog import CLI', () => {
  let dir: TempDir;
  let testApp: TestApp;
  let client: ContractClient;

  const cliEnv = () => ({ ...process.env, DATA_DIR: dir.path, DATABASE_URL: testApp.config.databaseUrl ?? '' });
  const runCli = (...args: string[]): Promise<CliResult> =>
    new Promise((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, env: cliEnv() }, (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      });
    });
  const runCommand = (...args: string[]) => runCommandWith({}, ...args);
  const runCommandWith = async (progress: { progressIntervalMs?: number }, ...args: string[]): Promise<CliResult> => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const output = {
      log: (...parts: unknown[]) => stdout.push(`${format(...parts)}\n`),
      warn: (...parts: unknown[]) => stderr.push(`${format(...parts)}\n`),
      error: (...parts: unknown[]) => stderr.push(`${format(...parts)}\n`),
    };
    const code = await importCatalogCommand(args, output, cliEnv(), progress);
    return { code, stdout: stdout.join(''), stderr: stderr.join('') };
  };

  const detail = (handle: string) => client.get(`/public/v1/products/${handle}`);
  const refreshed = () => testApp.app.catalogReadModel.refresh();

  before(async () => {
    dir = await tempDir();
    const seed = await dir.writeJson('seed.json', SEED);
    testApp = await startTestApp(withAdmin({ config: { dataDir: dir.path, sqlitePath: path.join(dir.path, 'vetrina.sqlite'), catalogSeed: seed } }));
    client = testApp.client;
  });
  after(async () => {
    await testApp.close();
    await dir.remove();
  });

  it('exits non-zero for an invalid file, prints every problem path, and leaves the store unchanged', async () => {
    const file = await dir.writeJson('invalid.json', INVALID_CATALOG);
    const before = await dumpCatalog(testApp.store.db);
    const result = await runCommand(file);
    assert.notEqual(result.code, 0);
    for (const [problemPath] of INVALID_CATALOG_PROBLEMS) assert.ok(result.stderr.includes(problemPath), `${problemPath} in ${result.stderr}`);
    assert.deepEqual(await dumpCatalog(testApp.store.db), before);
  });

  it('exits non-zero for an invalid file with --dry-run too', async () => {
    const file = await dir.writeJson('invalid.json', INVALID_CATALOG);
    const result = await runCommand(file, '--dry-run');
    assert.notEqual(result.code, 0);
    assert.ok(result.stderr.includes(INVALID_CATALOG_PROBLEMS[0]![0]));
  });

  it('writes nothing with --dry-run for a valid file', async () => {
    const file = await dir.writeJson('changed.json', CHANGED);
    const before = await dumpCatalog(testApp.store.db);
    const result = await runCommand(file, '--dry-run');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /is valid.*Nothing written/s);
    assert.deepEqual(await dumpCatalog(testApp.store.db), before);
  });

  it('200 after an import by another process: same ids, new price, and products missing from the file kept and listed by handle', async () => {
    const before = (await getOk(client, '/public/v1/products/update-me')).product;
    const result = await runCli(await dir.writeJson('changed.json', CHANGED));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /not in file, kept: 1 \(keep-me\)/);

    // Audited like an import over the admin API: each step under the command's name, with the catalog versions it printed.
    const [, versionBefore, versionAfter] = /catalog version (\d+) to (\d+)/.exec(result.stdout)!.map(Number);
    const audit = await adminClient(testApp)('GET', '/admin/v1/audit?actor=catalog:import&target_type=catalog');
    const steps = audit.data.entries.filter((entry: any) => entry.version_before === versionBefore);
    assert.deepEqual(steps.map((entry: any) => [entry.action, entry.changes.step]), [['import', 'done'], ['import', 'products'], ['import', 'regions']]);
    assert.equal(steps[0].version_after, versionAfter);
    assert.ok(versionBefore! < versionAfter!);

    await refreshed();
    const after = (await getOk(client, '/public/v1/products/update-me')).product;
    assert.equal(after.id, before.id);
    assert.equal(after.variants[0].id, before.variants[0].id);
    assert.deepEqual(after.variants[0].price, { amount: 2.5, currency: 'EUR' });
    assert.equal((await detail('keep-me')).statusCode, 200);
  });

  it('404 PRODUCT_NOT_FOUND after an import with --unpublish-missing for the products missing from the file', async () => {
    const result = await runCommand(await dir.writeJson('changed.json', CHANGED), '--unpublish-missing');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /unpublished: 1 \(keep-me\)/);

    await refreshed();
    assertProblem(await detail('keep-me'), 404, 'PRODUCT_NOT_FOUND');
    assert.equal((await detail('update-me')).statusCode, 200);
  });

  it('prints the progress of both phases to stderr and only the report to stdout', async () => {
    const products = Array.from({ length: 1200 }, (_, i) => product(`progress-${i}`, { created_at: day(3) }));
    const file = await dir.writeJson('long.json', catalog([...CHANGED.products, ...products]));
    const result = await runCommandWith({ progressIntervalMs: 0 }, file);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^validating: \d[\d,]* products, \d+ of \d+ MB \(\d+ %\), [\d,]+ products\/s, about \d+ s left$/m);
    assert.match(result.stderr, /^validating: done, 1,201 products validated in [\d.]+ s \([\d,]+ products\/s\)$/m);
    assert.match(result.stderr, /^writing: 500 of 1,201 products \(41 %\), [\d,]+ products\/s, about \d+ s left$/m);
    assert.match(result.stderr, /^writing: done, 1,201 products written in [\d.]+ s/m);
    assert.doesNotMatch(result.stdout, /validating|writing/);
    assert.match(result.stdout, /products: 1200 created, 1 updated/);

    await refreshed();
    assert.equal((await detail('progress-1199')).statusCode, 200);
  });

  it('exits 2 with the usage for a missing file argument', async () => {
    const result = await runCommand();
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Usage:/);
  });
});
