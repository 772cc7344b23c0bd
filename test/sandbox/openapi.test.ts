import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const COMPONENTS = [
  'SandboxKeyRequest',
  'SandboxKeyResponse',
  'SandboxCartRequest',
  'SandboxItemRequest',
  'SandboxAddress',
  'SandboxShippingOptionRequest',
  'SandboxEmptyRequest',
  'SandboxActionRequest',
  'SandboxCartItem',
  'SandboxShippingOption',
  'SandboxCart',
  'SandboxError',
  'SandboxDiscovery',
  'SandboxShippingOptions',
];
const CLOSED = ['SandboxKeyRequest', 'SandboxCartRequest', 'SandboxItemRequest', 'SandboxAddress', 'SandboxShippingOptionRequest', 'SandboxEmptyRequest'];

describe('the sandbox in /openapi.json', () => {
  let sandbox: TestApp;
  let document: any;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS });
    document = JSON.parse((await sandbox.app.inject({ method: 'GET', url: '/openapi.json' })).body);
  });
  after(() => sandbox.close());

  const sandboxOperations = () =>
    Object.entries(document.paths as Record<string, Record<string, any>>)
      .filter(([path]) => path.startsWith('/sandbox/'))
      .flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, operation })));

  test('the document is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    assert.equal(validator.version, '3.1');
    assert.deepEqual(result, { valid: true }, JSON.stringify(result.errors));
  });

  test('every sandbox resource of the contract is a named component; request bodies reject extra properties', () => {
    for (const name of COMPONENTS) assert.ok(document.components.schemas[name], name);
    for (const name of CLOSED) assert.equal(document.components.schemas[name].additionalProperties, false, name);
  });

  test('SandboxActionRequest is a oneOf of named components, mapped by action, each branch closed', () => {
    const schema = document.components.schemas.SandboxActionRequest;
    assert.equal(schema.anyOf, undefined);
    const branches = schema.oneOf.map(({ $ref }: { $ref: string }) => ({ $ref, schema: document.components.schemas[$ref.replace('#/components/schemas/', '')] }));
    assert.deepEqual(
      branches.map(({ schema }: any) => schema.properties.action.const),
      ['add_item', 'set_shipping_address', 'select_shipping_option', 'checkout_link'],
    );
    assert.deepEqual(schema.discriminator, {
      propertyName: 'action',
      mapping: Object.fromEntries(branches.map(({ $ref, schema }: any) => [schema.properties.action.const, $ref])),
    });
    for (const { schema: branch } of branches) {
      assert.equal(branch.additionalProperties, false);
      assert.ok(branch.required.includes('action'));
    }
  });

  test('the bearer scheme is declared and applied to every cart route with the scope it needs', () => {
    assert.deepEqual(
      { type: document.components.securitySchemes.sandboxBearer.type, scheme: document.components.securitySchemes.sandboxBearer.scheme },
      { type: 'http', scheme: 'bearer' },
    );
    for (const { path, method, operation } of sandboxOperations()) {
      if (path === '/sandbox/v1' || path === '/sandbox/v1/keys') {
        assert.deepEqual(operation.security, [], `${method} ${path} needs no key`);
        continue;
      }
      const expected = path.endsWith('/checkout') ? ['checkout:create'] : path === '/sandbox/v1/carts/{id}' && method === 'post' ? [] : ['cart:write'];
      assert.deepEqual(operation.security, [{ sandboxBearer: expected }], `${method} ${path}`);
      assert.ok(operation.responses['401'].headers['WWW-Authenticate'], `${method} ${path}`);
      assert.ok(operation.responses['429'].headers['Retry-After'], `${method} ${path}`);
    }
  });

  test('every sandbox operation has the sandbox tag, an operationId, a summary, a description and a 503', () => {
    const operations = sandboxOperations();
    // 12 and the HEAD of each of the 3 GETs.
    assert.equal(operations.length, 15);
    for (const { path, method, operation } of operations) {
      assert.deepEqual(operation.tags, ['sandbox'], `${method} ${path}`);
      assert.match(operation.operationId, /^[a-z][A-Za-z]+$/);
      assert.ok(operation.summary && operation.description, `${method} ${path}`);
      assert.ok(operation.responses['503'], `${method} ${path}`);
    }
    assert.equal(new Set(operations.map(({ operation }) => operation.operationId)).size, operations.length);
  });

  test('idempotency, rate-limit and deprecation headers are documented', () => {
    const create = document.paths['/sandbox/v1/carts'].post;
    assert.ok(create.parameters.some((p: any) => p.in === 'header' && p.name === 'idempotency-key' && p.required));
    for (const header of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Idempotency-Key', 'Idempotent-Replayed']) {
      assert.ok(create.responses['201'].headers[header], header);
    }
    const compatibility = document.paths['/sandbox/v1/carts/{id}'].post;
    assert.equal(compatibility.deprecated, true);
    for (const header of ['Deprecation', 'Sunset', 'Link']) assert.ok(compatibility.responses['200'].headers[header], header);
    assert.ok(document.paths['/sandbox/v1/keys'].post.responses['429'].headers['RateLimit-Limit']);
  });

  test('optional bodies are documented as optional, required ones as required', () => {
    assert.equal(document.paths['/sandbox/v1/keys'].post.requestBody.required, false);
    assert.equal(document.paths['/sandbox/v1/carts'].post.requestBody.required, false);
    assert.equal(document.paths['/sandbox/v1/carts/{id}/checkout'].post.requestBody.required, false);
    assert.equal(document.paths['/sandbox/v1/carts/{id}/items'].post.requestBody.required, true);
    assert.equal(document.paths['/sandbox/v1/carts/{id}'].post.requestBody.required, true);
    assert.ok(!JSON.stringify(document).includes('x-optional-body'));
  });
});
