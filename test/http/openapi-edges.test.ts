import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERP_TOKEN, withAdmin } from '../support/admin.js';
import { useTestApp } from '../support/test-app.js';
import { testUcpOperations } from '../support/ucp-operations.js';

type Operation = { operationId?: string; parameters?: { name: string; in: string; required?: boolean; schema?: { default?: unknown } }[]; responses: Record<string, any>; requestBody?: any };
type Document = { paths: Record<string, Record<string, Operation>> };

const DOCUMENTS = ['/openapi.json', '/admin/openapi.json'];
const BODY_METHODS = ['post', 'put', 'patch', 'delete'];

/** The edges of the contract, in both documents: what a validating proxy (Prism) and generated clients hold the service to. */
describe('the OpenAPI documents at the edges of the contract', () => {
  const testApp = useTestApp(withAdmin({ ucpOperations: testUcpOperations }));
  const documents = new Map<string, Document>();
  const document = async (url: string): Promise<Document> => {
    if (!documents.has(url)) documents.set(url, (await testApp.app.inject({ url })).json());
    return documents.get(url)!;
  };
  const operations = async (url: string) =>
    Object.entries((await document(url)).paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, operation })));

  for (const url of DOCUMENTS) {
    it(`${url}: no 304 declares a body`, async () => {
      const notModified = (await operations(url)).filter(({ operation }) => operation.responses['304']);
      for (const { path, method, operation } of notModified) assert.equal(operation.responses['304'].content, undefined, `${method} ${path}`);
    });

    it(`${url}: every route Fastify reads a body of documents 413 and 415, every other route 415, each in the envelope of its 400`, async () => {
      for (const { path, method, operation } of await operations(url)) {
        const { responses } = operation;
        if ('4XX' in responses) continue;
        const expected = BODY_METHODS.includes(method) ? ['413', '415'] : ['415'];
        for (const status of expected) {
          assert.ok(responses[status], `${method} ${path} documents no ${status}`);
          assert.deepEqual(responses[status].content, responses['400'].content, `${method} ${path} ${status}`);
        }
      }
    });

    it(`${url}: no parameter with a default is required`, async () => {
      for (const { path, method, operation } of await operations(url)) {
        for (const parameter of operation.parameters ?? []) {
          if (parameter.schema?.default !== undefined) assert.notEqual(parameter.required, true, `${method} ${path} ${parameter.name}`);
        }
      }
    });

    it(`${url}: HEAD is documented for every GET, with the GET's statuses and no body`, async () => {
      for (const [path, item] of Object.entries((await document(url)).paths)) {
        if (!item.get) continue;
        const head = item.head;
        assert.ok(head, `HEAD ${path} is not documented`);
        assert.equal(head.operationId, `${item.get.operationId}Head`);
        assert.deepEqual(Object.keys(head.responses), Object.keys(item.get.responses), path);
        for (const [status, response] of Object.entries(head.responses)) assert.equal(response.content, undefined, `HEAD ${path} ${status}`);
      }
    });
  }

  it('/openapi.json documents the 304 it answers to its own ETag', async () => {
    const first = await testApp.app.inject({ url: '/openapi.json' });
    const again = await testApp.app.inject({ url: '/openapi.json', headers: { 'if-none-match': String(first.headers.etag) } });
    assert.equal(again.statusCode, 304);
    assert.ok((await document('/openapi.json')).paths['/openapi.json']!.get!.responses['304']);
  });

  it('HEAD is answered where documented: the GET status and headers, no body', async () => {
    for (const url of ['/public/v1/products', '/openapi.json', '/healthz']) {
      const head = await testApp.app.inject({ method: 'HEAD', url });
      assert.equal(head.statusCode, 200, url);
      assert.equal(head.body, '', url);
    }
    const admin = await testApp.app.inject({ method: 'HEAD', url: '/admin/v1/audit', headers: { authorization: `Bearer ${ERP_TOKEN}` } });
    assert.equal(admin.statusCode, 200);
  });

  it('413 and 415 answered on a body route of each surface are the documented envelopes', async () => {
    const token = await testApp.newKey();
    const tooLarge = await testApp.call(token, 'POST', '/sandbox/v1/carts', { pad: 'x'.repeat(70_000) }, { 'idempotency-key': 'large' });
    assert.equal(tooLarge.statusCode, 413);
    const encoded = await testApp.client.request({
      method: 'POST',
      url: '/sandbox/v1/carts',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: '{}',
    });
    assert.equal(encoded.statusCode, 415);
    const wrongType = await testApp.call(token, 'POST', '/sandbox/v1/carts', '<cart/>', { 'content-type': 'application/xml', 'idempotency-key': 'xml' });
    assert.equal(wrongType.statusCode, 415);
    // A GET refuses an encoded body too (request-guards.ts).
    const get = await testApp.client.request({ method: 'GET', url: '/public/v1/products', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: '{}' });
    assert.equal(get.statusCode, 415);
  });

  it('GET /admin/v1/audit without limit and POST /admin/v1/imports without unpublish_missing are documented as valid', async () => {
    const admin = await document('/admin/openapi.json');
    const required = (path: string, method: string) => (admin.paths[path]![method]!.parameters ?? []).filter((p) => p.required).map((p) => p.name);
    assert.deepEqual(required('/admin/v1/audit', 'get'), []);
    assert.deepEqual(required('/admin/v1/imports', 'post'), []);
    const audit = await testApp.app.inject({ url: '/admin/v1/audit', headers: { authorization: `Bearer ${ERP_TOKEN}` } });
    assert.equal(audit.statusCode, 200);
  });

  it('the MCP request bodies are a typed JSON-RPC message or batch, with an example', async () => {
    const { paths } = await document('/openapi.json');
    for (const path of ['/mcp', '/mcp/sandbox']) {
      const media = paths[path]!.post!.requestBody.content['application/json'];
      assert.deepEqual(media.schema.anyOf.map((branch: { type: string }) => branch.type), ['object', 'array'], path);
      assert.equal(media.example.jsonrpc, '2.0', path);
    }
  });

  it('the MCP endpoint still answers a body that is no JSON-RPC message itself (the SDK\'s error), as before', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: '"not a message"',
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().jsonrpc, '2.0');
  });

  it('/public/v1/products/ is the product path with an empty handle, as the document routes it: 400 INVALID_HANDLE', async () => {
    for (const url of ['/public/v1/products/', '/public/v1/products/?limit=2']) {
      // The contract client matches no path to it: it follows the document, in which a handle is never empty.
      const response = await testApp.app.inject({ url });
      assert.equal(response.statusCode, 400, url);
      assert.equal(response.json().error.code, 'INVALID_HANDLE', url);
    }
    assert.equal((await testApp.client.get('/public/v1/products')).statusCode, 200);
  });
});
