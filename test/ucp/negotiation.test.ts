import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CheckedResponse } from '../support/contract.js';
import { pollUntil } from '../support/poll.js';
import { useTestApp, type TestApp } from '../support/test-app.js';
import { testUcpOperations } from '../support/ucp-operations.js';
import { platformCapability, platformProfile, ucpAgent, ucpTestConfig, usePlatformServer, type PlatformServer } from '../support/ucp-platform.js';
import { assertValid, ucpValidator } from '../support/ucp-validator.js';

const { validator, skip } = await ucpValidator();
const STOREFRONT = 'https://shop.example.com';

/** POST the test cart operation as a platform whose profile is at `profileUrl` would. */
function noteCart(testApp: TestApp, agent: string | undefined, id = 'cart_1'): Promise<CheckedResponse> {
  return testApp.client.request({
    method: 'POST',
    url: `/ucp/v1/test/carts/${id}`,
    headers: { ...(agent !== undefined && { 'ucp-agent': agent }) },
    payload: { note: 'hello' },
  });
}

/** A negotiation failure as REST answers it: the status, `{ code, content, continue_url }`, not stored. */
function assertFailure(response: CheckedResponse, status: number, code: string, content?: RegExp): void {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(response.data.code, code, response.body);
  assert.equal(typeof response.data.content, 'string');
  if (content) assert.match(response.data.content, content);
  assert.equal(response.data.continue_url, STOREFRONT);
  assert.equal(response.headers['cache-control'], 'no-store');
}

describe('negotiation over REST', () => {
  const platform = usePlatformServer();
  const testApp = useTestApp({
    config: { storefrontUrl: STOREFRONT, ucp: ucpTestConfig({ profileTimeoutMs: 1000, profileMaxBytes: 8192 }) },
    ucpOperations: testUcpOperations,
  });
  let served = 0;
  /** A new profile path serving `answer`, so that no test sees another's cached profile. */
  const profileAt = (answer: Parameters<PlatformServer['serve']>[1]) => {
    const path = `/profiles/${++served}.json`;
    platform.serve(path, answer);
    return platform.url(path);
  };

  it('a good profile: the answer carries the negotiated version and the capabilities relevant to the operation', async () => {
    const url = profileAt({ body: platformProfile({ webhookUrl: 'https://platform.example/webhooks/orders' }) });
    const response = await noteCart(testApp, ucpAgent(url));
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.data.ucp, {
      version: '2026-04-08',
      status: 'success',
      capabilities: { 'dev.ucp.shopping.cart': [{ version: '2026-04-08' }], 'dev.ucp.shopping.discount': [{ version: '2026-04-08' }] },
    });
    assert.equal(response.data.platform_profile, url);
    assert.equal(response.data.order_webhook_url, 'https://platform.example/webhooks/orders');
    assert.equal(response.headers['cache-control'], 'no-store');
  });

  it('a checkout answer carries the checkout extensions and the payment handlers; a create answers 201', async () => {
    const url = profileAt({ body: platformProfile() });
    const response = await testApp.client.request({ method: 'POST', url: '/ucp/v1/test/checkouts', headers: { 'ucp-agent': ucpAgent(url) } });
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(Object.keys(response.data.ucp.capabilities).sort(), [
      'dev.ucp.shopping.buyer_consent',
      'dev.ucp.shopping.checkout',
      'dev.ucp.shopping.discount',
      'dev.ucp.shopping.fulfillment',
    ]);
    assert.equal(response.data.ucp.payment_handlers['dev.vetrina.sandbox_payment'][0].id, 'sandbox_payment');
    assert.equal(response.data.id, 'checkout_1');
  });

  it('an operation answers a business outcome with 200 and ucp.status error', { skip }, async () => {
    const url = profileAt({ body: platformProfile() });
    const response = await noteCart(testApp, ucpAgent(url), 'missing');
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.data.ucp.status, 'error');
    assert.equal(response.data.messages[0].code, 'not_found');
    assertValid(validator!.validateSchema('https://ucp.dev/schemas/shopping/types/error_response.json', response.data), 'the outcome');
  });

  it('capabilities_incompatible: a platform without the operation\'s capability gets a business outcome, not an error', { skip }, async () => {
    const url = profileAt({ body: platformProfile({ capabilities: { 'dev.ucp.shopping.checkout': [platformCapability('dev.ucp.shopping.checkout')] } }) });
    const response = await noteCart(testApp, ucpAgent(url));
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.data.ucp.status, 'error');
    assert.deepEqual(response.data.ucp.capabilities, {});
    assert.equal(response.data.messages[0].code, 'capabilities_incompatible');
    assert.equal(response.data.messages[0].severity, 'unrecoverable');
    assert.equal(response.data.continue_url, STOREFRONT);
    assertValid(validator!.validateSchema('https://ucp.dev/schemas/shopping/types/error_response.json', response.data), 'the outcome');
  });

  it('a capability the platform declares only at another version is not negotiated', async () => {
    const url = profileAt({ body: platformProfile({ capabilities: { 'dev.ucp.shopping.cart': [platformCapability('dev.ucp.shopping.cart', '2026-01-23')] } }) });
    assert.equal((await noteCart(testApp, ucpAgent(url))).data.messages[0].code, 'capabilities_incompatible');
  });

  it('version_unsupported: a profile of another protocol version is refused with 422', async () => {
    const url = profileAt({ body: platformProfile({ version: '2026-01-23' }) });
    assertFailure(await noteCart(testApp, ucpAgent(url)), 422, 'version_unsupported', /2026-01-23 is not supported.*2026-04-08/);
  });

  it('profile_malformed: a profile that is not JSON, or not a platform profile, is refused with 422', async () => {
    assertFailure(await noteCart(testApp, ucpAgent(profileAt({ raw: '{"ucp": ' }))), 422, 'profile_malformed', /not JSON/);
    assertFailure(await noteCart(testApp, ucpAgent(profileAt({ body: { ucp: { version: '2026-04-08' } } }))), 422, 'profile_malformed', /services/);
    const badVersion = platformProfile({ version: 'draft' });
    assertFailure(await noteCart(testApp, ucpAgent(profileAt({ body: badVersion }))), 422, 'profile_malformed', /version/);
    const badWebhook = platformProfile({ webhookUrl: 'ftp://platform.example/hook' });
    assertFailure(await noteCart(testApp, ucpAgent(profileAt({ body: badWebhook }))), 422, 'profile_malformed', /webhook_url/);
  });

  it('profile_unreachable: an HTTP error, a redirect, a hang past the time-out, a closed port or a profile over the size limit is refused with 424', async () => {
    const large = { ...platformProfile(), padding: 'x'.repeat(8192) };
    assertFailure(await noteCart(testApp, ucpAgent(profileAt({ body: large }))), 424, 'profile_unreachable', /larger than 8192 bytes/);
    assertFailure(await noteCart(testApp, ucpAgent(profileAt({ status: 500, body: {} }))), 424, 'profile_unreachable', /HTTP 500/);
    assertFailure(await noteCart(testApp, ucpAgent(platform.url('/nowhere.json'))), 424, 'profile_unreachable', /HTTP 404/);
    const redirect = profileAt({ status: 302, headers: { location: platform.url('/profiles/1.json') }, body: {} });
    assertFailure(await noteCart(testApp, ucpAgent(redirect)), 424, 'profile_unreachable', /redirects are not followed/);
    assertFailure(await noteCart(testApp, ucpAgent(profileAt({ hang: true }))), 424, 'profile_unreachable', /within 1000 ms/);
    assertFailure(await noteCart(testApp, ucpAgent('http://127.0.0.1:1/profile.json')), 424, 'profile_unreachable', /ECONNREFUSED/);
  });

  it('invalid_profile_url: a missing or malformed UCP-Agent, or a URL that is not https, is refused with 400', async () => {
    assertFailure(await noteCart(testApp, undefined), 400, 'invalid_profile_url', /missing/);
    assertFailure(await noteCart(testApp, 'profile="https://platform.example/p.json'), 400, 'invalid_profile_url', /RFC 8941/);
    assertFailure(await noteCart(testApp, 'profile=https://platform.example/p.json'), 400, 'invalid_profile_url', /double quotes/);
    assertFailure(await noteCart(testApp, 'agent="x"'), 400, 'invalid_profile_url', /no profile member/);
    assertFailure(await noteCart(testApp, 'profile=?1'), 400, 'invalid_profile_url', /no profile member/);
    assertFailure(await noteCart(testApp, ucpAgent('/relative/profile.json')), 400, 'invalid_profile_url', /not an absolute URL/);
    assertFailure(await noteCart(testApp, ucpAgent('ftp://platform.example/p.json')), 400, 'invalid_profile_url', /https/);
    assertFailure(await noteCart(testApp, ucpAgent('https://user:secret@platform.example/p.json')), 400, 'invalid_profile_url', /credentials/);
  });

  it('the other members of UCP-Agent are ignored', async () => {
    const url = profileAt({ body: platformProfile() });
    assert.equal((await noteCart(testApp, `${ucpAgent(url)}, version="2026-04-08";x=1`)).statusCode, 200);
  });

  it('UCP_ALLOW_LOOPBACK_HTTP accepts http:// on loopback addresses only', async () => {
    assertFailure(await noteCart(testApp, ucpAgent('http://10.1.2.3/profile.json')), 400, 'invalid_profile_url', /not a loopback address/);
    assertFailure(await noteCart(testApp, ucpAgent('http://[::ffff:192.168.0.1]/profile.json')), 400, 'invalid_profile_url', /not a loopback address/);
    // https keeps the rule of the protocol: public addresses only.
    assertFailure(await noteCart(testApp, ucpAgent(`https://127.0.0.1:${platform.port()}/profiles/1.json`)), 400, 'invalid_profile_url', /private, loopback or link-local/);
    const url = profileAt({ body: platformProfile() });
    const byName = url.replace('127.0.0.1', 'localhost');
    assert.equal((await noteCart(testApp, ucpAgent(byName))).statusCode, 200, 'a name resolving to loopback');
  });

  it('the request body is checked after negotiation, in the UCP error shape', async () => {
    const url = profileAt({ body: platformProfile() });
    const response = await testApp.client.request({ method: 'POST', url: '/ucp/v1/test/carts/c', headers: { 'ucp-agent': ucpAgent(url) }, payload: { note: 'x'.repeat(21) } });
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.data.code, 'invalid_request');
    assert.match(response.data.content, /note/);
  });

  it('an unknown route under /ucp/v1 is 404 not_found in the UCP error shape', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/ucp/v1/nothing-here' });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, 'not_found');
    assert.equal(response.headers['cache-control'], 'no-store');
  });
});

describe('negotiation without UCP_ALLOW_LOOPBACK_HTTP', () => {
  const platform = usePlatformServer();
  const testApp = useTestApp({ config: { storefrontUrl: STOREFRONT }, ucpOperations: testUcpOperations });

  it('refuses http:// profiles', async () => {
    platform.serve('/p.json', { body: platformProfile() });
    assertFailure(await noteCart(testApp, ucpAgent(platform.url('/p.json'))), 400, 'invalid_profile_url', /must be https/);
    assert.equal(platform.hits('/p.json'), 0);
  });

  it('refuses a profile host that resolves to 127.0.0.1 after resolving it, without connecting', async () => {
    platform.serve('/p.json', { body: platformProfile() });
    const response = await noteCart(testApp, ucpAgent(`https://localhost:${platform.port()}/p.json`));
    assertFailure(response, 400, 'invalid_profile_url', /localhost: the target is a private, loopback or link-local address/);
    assert.equal(platform.hits('/p.json'), 0);
  });
});

describe('the platform profile cache', () => {
  const platform = usePlatformServer();
  const testApp = useTestApp({ config: { ucp: ucpTestConfig({ profileCacheSize: 2 }) }, ucpOperations: testUcpOperations });
  const call = (path: string) => noteCart(testApp, ucpAgent(platform.url(path)));

  it('keeps at most UCP_PROFILE_CACHE_SIZE profiles, dropping the least recently used', async () => {
    for (const path of ['/a.json', '/b.json', '/c.json']) platform.serve(path, { body: platformProfile() });
    for (const path of ['/a.json', '/b.json', '/a.json', '/c.json']) assert.equal((await call(path)).statusCode, 200);
    assert.deepEqual([platform.hits('/a.json'), platform.hits('/b.json'), platform.hits('/c.json')], [1, 1, 1], 'a was kept over b');
    await call('/b.json');
    assert.equal(platform.hits('/b.json'), 2, 'b was dropped when c came');
    await call('/c.json');
    assert.equal(platform.hits('/c.json'), 1, 'c is kept');
    await call('/a.json');
    assert.equal(platform.hits('/a.json'), 2, 'a was dropped when b came back');
  });

  it('keeps a profile at least 60 s whatever its Cache-Control says, longer when its max-age says so', async () => {
    platform.serve('/short.json', { body: platformProfile(), headers: { 'cache-control': 'no-store' } });
    platform.serve('/long.json', { body: platformProfile(), headers: { 'cache-control': 'public, max-age=600' } });
    await call('/short.json');
    await call('/long.json');
    testApp.advanceClock(59_000);
    await call('/short.json');
    assert.equal(platform.hits('/short.json'), 1);
    testApp.advanceClock(2000);
    await call('/short.json');
    await call('/long.json');
    assert.deepEqual([platform.hits('/short.json'), platform.hits('/long.json')], [2, 1]);
    testApp.advanceClock(540_000);
    await call('/long.json');
    assert.equal(platform.hits('/long.json'), 2);
  });

  it('backs off a failing profile for a moment, and uses it once it is fixed', async () => {
    platform.serve('/broken.json', { status: 503, body: {} });
    assert.equal((await call('/broken.json')).statusCode, 424);
    assert.equal((await call('/broken.json')).statusCode, 424);
    assert.equal(platform.hits('/broken.json'), 1, 'the failure is remembered');
    platform.serve('/broken.json', { body: platformProfile() });
    testApp.advanceClock(1100);
    assert.equal((await call('/broken.json')).statusCode, 200);
    assert.equal(platform.hits('/broken.json'), 2);
  });
});

describe('profiles fetched at once', () => {
  const platform = usePlatformServer();
  const testApp = useTestApp({ config: { ucp: ucpTestConfig({ profileTimeoutMs: 3000 }) }, ucpOperations: testUcpOperations });
  const call = (path: string) => noteCart(testApp, ucpAgent(platform.url(path)));

  it('concurrent requests naming one profile share one fetch', async () => {
    platform.serve('/shared.json', { body: platformProfile() });
    const answers = await Promise.all([call('/shared.json'), call('/shared.json'), call('/shared.json')]);
    assert.deepEqual(
      answers.map((answer) => answer.statusCode),
      [200, 200, 200],
    );
    assert.equal(platform.hits('/shared.json'), 1);
  });

  it('past 64 distinct profiles being fetched, a request naming another one is 503 discovery_busy with Retry-After', async () => {
    const paths = Array.from({ length: 64 }, (_, index) => `/hanging-${index}.json`);
    for (const path of paths) platform.serve(path, { hang: true });
    const hanging = paths.map((path) => call(path));
    const fetched = await pollUntil(
      async () => paths.reduce((sum, path) => sum + platform.hits(path), 0),
      (hits) => hits === paths.length,
      60_000,
    );
    assert.equal(fetched.value, paths.length);
    platform.serve('/one-more.json', { body: platformProfile() });
    const refused = await call('/one-more.json');
    assert.equal(refused.statusCode, 503, refused.body);
    assert.equal(refused.data.code, 'discovery_busy');
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal(platform.hits('/one-more.json'), 0);
    // The hanging fetches end at their time-out, and the next request is served.
    for (const answer of await Promise.all(hanging)) assert.equal(answer.data.code, 'profile_unreachable');
    assert.equal((await call('/one-more.json')).statusCode, 200);
  });
});

describe('the intersection', () => {
  const platform = usePlatformServer();
  const testApp = useTestApp({ config: { ucp: ucpTestConfig() }, ucpOperations: testUcpOperations });

  const cases: [string, Record<string, object[]>][] = [
    ['everything', (platformProfile() as any).ucp.capabilities],
    ['the highest mutual version', { 'dev.ucp.shopping.cart': [platformCapability('dev.ucp.shopping.cart', '2026-01-23'), platformCapability('dev.ucp.shopping.cart')] }],
    [
      'an extension whose parents are missing is pruned',
      { 'dev.ucp.shopping.cart': [platformCapability('dev.ucp.shopping.cart')], 'dev.ucp.shopping.fulfillment': [platformCapability('dev.ucp.shopping.fulfillment')] },
    ],
    [
      'a multi-parent extension stays with one parent',
      { 'dev.ucp.shopping.cart': [platformCapability('dev.ucp.shopping.cart')], 'dev.ucp.shopping.discount': [platformCapability('dev.ucp.shopping.discount')] },
    ],
    ['unknown capabilities are ignored', { 'com.example.loyalty': [{ version: '2026-04-08', spec: 'https://example.com/spec', schema: 'https://example.com/schema.json' }] }],
  ];
  for (const [name, capabilities] of cases) {
    it(`agrees with the release's validator: ${name}`, { skip }, async () => {
      const profile = platformProfile({ capabilities });
      const path = `/${name.replace(/\W+/g, '-')}.json`;
      platform.serve(path, { body: profile });
      const business = (await testApp.client.get('/.well-known/ucp')).data;
      const expected = validator!.negotiate(business, profile).capabilities;
      const response = await noteCart(testApp, ucpAgent(platform.url(path)));
      const relevant = Object.entries(expected)
        .filter(([capability, { extends: parents }]) => capability === 'dev.ucp.shopping.cart' || parents.includes('dev.ucp.shopping.cart'))
        .map(([capability, { version }]) => [capability, [{ version }]]);
      assert.deepEqual(response.data.ucp.capabilities, Object.fromEntries(relevant));
    });
  }
});
