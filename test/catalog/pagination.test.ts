import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { duplicates, getOk, walkCursor, walkOffset } from '../support/catalog-assertions.js';
import { readDemoCatalog, servedHandles } from '../support/catalog-store.js';
import type { ContractClient } from '../support/contract.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Decisions 4 and 9 over the demo catalog (55 served products). */
describe('cursor and offset pagination', () => {
  let testApp: TestApp;
  let client: ContractClient;
  let served: string[];

  before(async () => {
    testApp = await startTestApp();
    client = testApp.client;
    served = servedHandles(await readDemoCatalog());
  });
  after(() => testApp.close());

  // Each query has more than one page: 55, 9, 19 and 55 matches.
  for (const query of ['', 'q=olive', 'q=di&locale=it', 'country=GB&locale=it']) {
    describe(`walking next_cursor with limit 7${query ? ` and ${query}` : ''}`, () => {
      it('200 on every page, visiting every product exactly once in the offset order', async () => {
        const pages = await walkCursor(client, `limit=7&${query}`);
        const walked = pages.flatMap((page) => page.handles);
        assert.deepEqual(duplicates(walked), []);
        assert.deepEqual(walked, await walkOffset(client, query, 7));
      });

      it('200 with count the total on every page, offset the position, has_more only before the last page', async () => {
        const pages = await walkCursor(client, `limit=7&${query}`);
        const total = pages.flatMap((page) => page.handles).length;
        assert.ok(total > 7, 'the walk spans several pages');
        assert.equal(pages.length, Math.ceil(total / 7));
        pages.forEach((page, index) => {
          const last = index === pages.length - 1;
          assert.equal(page.count, total);
          assert.equal(page.offset, index * 7);
          assert.equal(page.handles.length, last ? total - index * 7 : 7);
          assert.equal(page.hasMore, !last);
          assert.equal(page.nextCursor === null, last);
        });
      });
    });
  }

  it('200 walking the whole catalog yields exactly the published, non-weighted demo products, newest first', async () => {
    const walked = (await walkCursor(client, 'limit=7')).flatMap((page) => page.handles);
    assert.equal(walked.length, 55);
    assert.deepEqual(walked, served);
  });

  it('200 with a URL-safe cursor of at most 512 characters', async () => {
    const { next_cursor: cursor } = await getOk(client, '/public/v1/products?limit=1&q=olive%20oil&locale=it&country=DE');
    assert.match(cursor, /^[A-Za-z0-9_.-]+$/);
    assert.ok(cursor.length <= 512);
  });

  it('200 with has_more false and next_cursor null when one page holds every match', async () => {
    const data = await getOk(client, '/public/v1/products?limit=20&q=olive');
    assert.equal(data.count, data.products.length);
    assert.equal(data.has_more, false);
    assert.equal(data.next_cursor, null);
  });
});
