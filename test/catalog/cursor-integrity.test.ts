import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { deploymentSecret } from '../../src/store/deployment-secrets.js';
import { assertProblem, getOk } from '../support/catalog-assertions.js';
import type { ContractClient } from '../support/contract.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PAGE = '/public/v1/products?limit=5';

/** Re-encodes the payload part of a cursor after `edit`, keeping its MAC. */
function editPayload(cursor: string, edit: (payload: Record<string, unknown>) => void): string {
  const [text, mac] = cursor.split('.');
  const payload = JSON.parse(Buffer.from(text!, 'base64url').toString()) as Record<string, unknown>;
  edit(payload);
  return `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
}

describe('cursors carry a MAC under a secret of the deployment', () => {
  let testApp: TestApp;
  let client: ContractClient;
  let cursor: string;
  /** A second instance on the same store, as behind a load balancer. */
  let sibling: FastifyInstance;

  before(async () => {
    testApp = await startTestApp();
    client = testApp.client;
    cursor = (await getOk(client, PAGE)).next_cursor;
    sibling = await buildApp({ config: testApp.config, store: testApp.store, logger: false });
  });
  after(async () => {
    await sibling?.close();
    await testApp.close();
  });

  it('200 for the cursor as issued, and it fits in 512 characters', async () => {
    assert.ok(cursor.length <= 512, cursor);
    assert.equal((await getOk(client, `${PAGE}&cursor=${cursor}`)).offset, 5);
  });

  it('400 INVALID_QUERY for a cursor whose position was edited, even into a valid one', async () => {
    const second = (await getOk(client, `${PAGE}&cursor=${cursor}`)).next_cursor as string;
    const secondId = JSON.parse(Buffer.from(second.split('.')[0]!, 'base64url').toString()).i;
    const edited = editPayload(cursor, (payload) => {
      payload.i = secondId;
    });
    const response = await client.get(`${PAGE}&cursor=${edited}`);
    assertProblem(response, 400, 'INVALID_QUERY');
    assert.match(response.data.error.message, /not one this API issued, or it was changed/);
  });

  it('400 INVALID_QUERY for a changed MAC, a missing MAC and a cursor made up from scratch', async () => {
    const [text, mac] = cursor.split('.') as [string, string];
    const flipped = `${text}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    for (const forged of [flipped, text, `${text}.`, `${text}.${mac}${mac}`, Buffer.from('{"v":1}').toString('base64url')]) {
      assertProblem(await client.get(`${PAGE}&cursor=${encodeURIComponent(forged)}`), 400, 'INVALID_QUERY');
    }
  });

  it('400 INVALID_QUERY for the issued cursor spelled otherwise: padding, a space, stray characters, a newline, other unused bits', async () => {
    const [text, mac] = cursor.split('.') as [string, string];
    // 16 bytes are 22 characters whose last carries 2 bits and 4 unused ones: 16 characters decode alike.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sameBits = alphabet[(alphabet.indexOf(mac.at(-1)!) & 0b110000) | 0b0001]!;
    const spellings = [`${cursor}==`, `${cursor} `, `${text}.${mac.slice(0, 10)}!!${mac.slice(10)}`, `${cursor}\n`, `${text}.${mac.slice(0, -1)}${sameBits}`];
    assert.equal(Buffer.from(spellings[4]!.split('.')[1]!, 'base64url').toString('hex'), Buffer.from(mac, 'base64url').toString('hex'), 'decodes to the same bytes');
    for (const spelling of spellings) {
      const response = await client.get(`${PAGE}&cursor=${encodeURIComponent(spelling)}`);
      assertProblem(response, 400, 'INVALID_QUERY');
      assert.match(response.data.error.message, /not one this API issued, or it was changed/, JSON.stringify(spelling));
    }
  });

  it('200 on another instance sharing the store: every instance holds the same secret', async () => {
    const response = await sibling.inject({ method: 'GET', url: `${PAGE}&cursor=${cursor}` });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(JSON.parse(response.body).offset, 5);
  });

  it('400 on a deployment with another store, whose secret differs', async () => {
    const other = await startTestApp();
    try {
      assertProblem(await other.client.get(`${PAGE}&cursor=${cursor}`), 400, 'INVALID_QUERY');
    } finally {
      await other.close();
    }
  });

  it('instances asking for a new secret at the same time all get the same one', async () => {
    const secrets = await Promise.all(Array.from({ length: 8 }, () => deploymentSecret(testApp.store.db, 'concurrent-test')));
    assert.equal(new Set(secrets.map((secret) => secret.toString('hex'))).size, 1);
    assert.equal(secrets[0]!.length, 32);
  });
});
