import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem, getOk } from '../support/catalog-assertions.js';
import { useTestApp } from '../support/test-app.js';

const LIST = '/public/v1/products';

describe('GET /public/v1/products query bounds (docs/decisions.md, Invalid queries)', () => {
  const shared = useTestApp();

  const invalidQuery = async (query: string) => {
    const response = await shared.client.get(`${LIST}?${query}`);
    assertProblem(response, 400, 'INVALID_QUERY');
    return response.data.error.message as string;
  };

  describe('limit', () => {
    it('200 with 10 products by default', async () => {
      const data = await getOk(shared.client, LIST);
      assert.equal(data.limit, 10);
      assert.equal(data.products.length, 10);
    });

    for (const limit of [1, 20]) {
      it(`200 with ${limit} products for limit=${limit}`, async () => {
        const data = await getOk(shared.client, `${LIST}?limit=${limit}`);
        assert.equal(data.limit, limit);
        assert.equal(data.products.length, limit);
      });
    }

    for (const limit of ['0', '21', '1.5', 'abc', '-1', '', '0x10', '1e1', '%2010', '10%20', '%2B5', '05', '0b1']) {
      it(`400 INVALID_QUERY for limit=${limit}`, async () => {
        await invalidQuery(`limit=${limit}`);
      });
    }

    it('names plain decimal digits when the number is written otherwise', async () => {
      assert.match(await invalidQuery('limit=0x10'), /limit must be an integer in plain decimal digits/);
    });
  });

  describe('offset', () => {
    it('200 for offset=1000, an empty page past the end', async () => {
      const data = await getOk(shared.client, `${LIST}?offset=1000`);
      assert.equal(data.offset, 1000);
      assert.deepEqual(data.products, []);
      assert.equal(data.has_more, false);
      assert.equal(data.next_cursor, null);
    });

    it('200 for offset=3, starting at the fourth product', async () => {
      const all = await getOk(shared.client, `${LIST}?limit=5`);
      const data = await getOk(shared.client, `${LIST}?limit=2&offset=3`);
      assert.equal(data.offset, 3);
      assert.deepEqual(
        data.products.map((p: any) => p.id),
        all.products.slice(3, 5).map((p: any) => p.id),
      );
    });

    for (const offset of ['1001', '-1', '2.5', 'x', '0x1', '1e2', '%205']) {
      it(`400 INVALID_QUERY for offset=${offset}`, async () => {
        await invalidQuery(`offset=${offset}`);
      });
    }
  });

  describe('q', () => {
    it('200 for q of 120 characters', async () => {
      const data = await getOk(shared.client, `${LIST}?q=${'a'.repeat(120)}`);
      assert.equal(data.count, 0);
    });

    it('400 INVALID_QUERY for q of 121 characters', async () => {
      await invalidQuery(`q=${'a'.repeat(121)}`);
    });

    it('400 INVALID_QUERY for q given twice', async () => {
      await invalidQuery('q=caffe&q=olio');
    });
  });

  describe('cursor', () => {
    it('400 INVALID_QUERY for a cursor of 512 characters because it does not decode, not because of its length', async () => {
      const at512 = await invalidQuery(`cursor=${'a'.repeat(512)}`);
      const at513 = await invalidQuery(`cursor=${'a'.repeat(513)}`);
      assert.notEqual(at512, at513);
      assert.match(at513, /512/);
      assert.doesNotMatch(at512, /512/);
    });

    for (const [cursor, what] of [
      ['not a cursor!', 'a malformed cursor'],
      [Buffer.from('{"v":1}').toString('base64url'), 'a cursor of the wrong shape'],
      [Buffer.from('null').toString('base64url'), 'a cursor that decodes to null'],
      ['', 'an empty cursor'],
    ]) {
      it(`400 INVALID_QUERY for ${what}`, async () => {
        await invalidQuery(`cursor=${encodeURIComponent(cursor!)}`);
      });
    }

    const firstCursor = async (query: string) => {
      const data = await getOk(shared.client, `${LIST}?limit=2&${query}`);
      assert.notEqual(data.next_cursor, null);
      return encodeURIComponent(data.next_cursor);
    };

    it('400 INVALID_QUERY for a cursor issued for another q', async () => {
      const cursor = await firstCursor('q=olive');
      await invalidQuery(`limit=2&q=pasta&cursor=${cursor}`);
      await invalidQuery(`limit=2&cursor=${cursor}`);
    });

    it('400 INVALID_QUERY for a cursor issued for another market', async () => {
      const cursor = await firstCursor('country=IT');
      await invalidQuery(`limit=2&country=DE&cursor=${cursor}`);
      await invalidQuery(`limit=2&locale=it&cursor=${cursor}`);
      await invalidQuery(`limit=2&country=GB&cursor=${cursor}`);
    });

    it('200 for a cursor reused with a different limit', async () => {
      const cursor = await firstCursor('q=olive');
      const data = await getOk(shared.client, `${LIST}?limit=3&q=olive&cursor=${cursor}`);
      assert.equal(data.offset, 2);
    });

    it('400 INVALID_QUERY for cursor combined with offset, even offset=0', async () => {
      const cursor = await firstCursor('');
      await invalidQuery(`limit=2&cursor=${cursor}&offset=2`);
      await invalidQuery(`limit=2&cursor=${cursor}&offset=0`);
    });
  });

  it('200 with unknown query parameters ignored', async () => {
    const plain = await getOk(shared.client, `${LIST}?limit=3`);
    const withUnknown = await getOk(shared.client, `${LIST}?limit=3&foo=bar&page=7&order=price`);
    assert.deepEqual(
      withUnknown.products.map((p: any) => p.id),
      plain.products.map((p: any) => p.id),
    );
    assert.equal(withUnknown.count, plain.count);
  });
});
