import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCatalogVersion } from '../../src/catalog/store/change-log.js';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';
import { putRegion } from '../../src/catalog/store/write/regions.js';
import type { Db } from '../../src/store/database.js';
import { product } from '../support/catalog-builder.js';
import { dumpCatalog } from '../support/catalog-store.js';
import { useTestApp } from '../support/test-app.js';

const REGION = { id: 'reg_ch', name: 'Switzerland', currency: 'CHF', countries: ['CH'] };

/** A write function outside the protocol does not compile: it takes a LockedCatalog, which only CatalogWriter.write makes. */
export function writesOutsideTheProtocol(db: Db) {
  // @ts-expect-error a plain connection is not a locked catalog
  return putRegion(db, REGION);
}

describe('CatalogWriter: the one way to change the catalog', () => {
  const testApp = useTestApp({ catalog: [product('olive-oil')] });
  const audit = (after: number) => testApp.store.db.selectFrom('admin_audit').selectAll().where('seq', '>', after).orderBy('seq').orderBy('position').execute();

  it('commits the writes, the change, its served documents and its audit entries as one change, then announces its version once', async () => {
    const announced: number[] = [];
    const writer = new CatalogWriter(testApp.store.db, { announce: async (version) => void announced.push(version) });
    const before = await readCatalogVersion(testApp.store.db);
    const { result, version } = await writer.write('ops', async (catalog) => {
      const written = await putRegion(catalog, REGION);
      return {
        result: written.created,
        regions: true,
        audit: [{ action: 'create', targetType: 'region', targetId: REGION.id, versionBefore: null, versionAfter: null, changes: { currency: 'CHF' } }],
      };
    });
    assert.equal(result, true);
    assert.equal(version, before + 1);
    assert.equal(await readCatalogVersion(testApp.store.db), version);
    assert.deepEqual(announced, [version]);
    const change = await testApp.store.db.selectFrom('catalog_changes').selectAll().where('seq', '=', version).executeTakeFirstOrThrow();
    assert.equal(change.regions_changed, 1);
    assert.deepEqual(
      (await audit(before)).map((entry) => [Number(entry.seq), entry.actor, entry.action, entry.target_id]),
      [[version, 'ops', 'create', 'reg_ch']],
    );
  });

  it('writes nothing, records no change and announces nothing when the work fails half-way', async () => {
    const announced: number[] = [];
    const writer = new CatalogWriter(testApp.store.db, { announce: async (version) => void announced.push(version) });
    const before = await readCatalogVersion(testApp.store.db);
    const stored = await dumpCatalog(testApp.store.db);
    await assert.rejects(
      writer.write('ops', async (catalog) => {
        await putRegion(catalog, { ...REGION, id: 'reg_li', countries: ['LI'] });
        throw new Error('refused after the first write');
      }),
      /refused after the first write/,
    );
    assert.equal(await readCatalogVersion(testApp.store.db), before);
    assert.deepEqual(await dumpCatalog(testApp.store.db), stored);
    assert.deepEqual(await audit(before), []);
    assert.deepEqual(announced, []);
  });

  it('records no change for a write that touched nothing and audits nothing: its version is the current one', async () => {
    const announced: number[] = [];
    const writer = new CatalogWriter(testApp.store.db, { announce: async (version) => void announced.push(version) });
    const before = await readCatalogVersion(testApp.store.db);
    const { version } = await writer.write('ops', async () => ({ result: null, audit: [] }));
    assert.equal(version, before);
    assert.equal(await readCatalogVersion(testApp.store.db), before);
    assert.deepEqual(announced, []);
  });

  it('lets writers take turns: concurrent writes get consecutive versions, each with its own audit entry', async () => {
    const writer = new CatalogWriter(testApp.store.db);
    const before = await readCatalogVersion(testApp.store.db);
    const versions = await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (name) =>
        (
          await writer.write(name, async () => ({
            result: null,
            audit: [{ action: 'note', targetType: 'catalog', targetId: 'catalog', versionBefore: null, versionAfter: null, changes: {} }],
          }))
        ).version,
      ),
    );
    assert.deepEqual([...versions].sort((a, b) => a - b), [before + 1, before + 2, before + 3, before + 4]);
    const entries = await audit(before);
    assert.deepEqual(entries.map((entry) => Number(entry.seq)).sort((a, b) => a - b), [before + 1, before + 2, before + 3, before + 4]);
    assert.ok(entries.every((entry) => Number(entry.version_after) === Number(entry.seq)), 'a catalog entry carries its change version');
  });
});
