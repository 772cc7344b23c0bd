// The sandbox guide's steps (served at /docs/assets/sandbox-guide.js by the portal).
// Each step sends real requests to this server and shows them with their answers.
// Plain browser JavaScript, no dependencies; DOM built with textContent only.
'use strict';

(() => {
  /** Answer headers worth showing: identity, rate limits, idempotency, caching, errors. */
  const SHOWN_HEADERS = [
    'content-type',
    'cache-control',
    'x-request-id',
    'ratelimit-limit',
    'ratelimit-remaining',
    'ratelimit-reset',
    'retry-after',
    'idempotency-key',
    'idempotent-replayed',
    'www-authenticate',
  ];
  const ADDRESS = { name: 'Ada Lovelace', line_one: 'Via Roma 1', city: 'Milano', country: 'IT', postal_code: '20121' };

  const state = {};
  const base = window.location.origin;

  const element = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  // crypto.randomUUID exists only in secure contexts, and a sandbox may be served over plain HTTP.
  const idempotencyKey = (purpose) => `guide-${purpose}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

  /** Sends one request, shows it and its answer under the step, and returns the parsed JSON (throws on a non-2xx status). */
  async function call(step, method, path, { body, headers = {} } = {}) {
    const url = base + path;
    const sent = { ...headers };
    if (state.token && !path.startsWith('/public/') && !path.endsWith('/keys')) sent.Authorization = `Bearer ${state.token}`;
    if (body !== undefined) sent['Content-Type'] = 'application/json';

    const exchange = element('div', 'exchange');
    const request = element('div', 'request');
    request.append(element('div', 'line', `${method} ${url}`));
    for (const [name, value] of Object.entries(sent)) request.append(element('div', 'header', `${name}: ${value}`));
    if (body !== undefined) request.append(element('pre', 'json', JSON.stringify(body, null, 2)));
    exchange.append(element('h3', null, 'Request'), request);
    document.querySelector(`[data-exchanges="${step}"]`).append(exchange);

    const response = await fetch(url, { method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
    const answer = element('div', `response ${response.ok ? 'ok' : 'failed'}`);
    answer.append(element('div', 'line status', `${response.status} ${response.statusText}`));
    for (const name of SHOWN_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) answer.append(element('div', 'header', `${name}: ${value}`));
    }
    answer.append(element('pre', 'json', typeof data === 'string' ? data : JSON.stringify(data, null, 2)));
    exchange.append(element('h3', null, 'Answer'), answer);
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
    return data;
  }

  const purchasable = (variant) => variant.availability.purchasable && variant.price !== null;

  const steps = {
    async variant() {
      const list = await call('variant', 'GET', '/public/v1/products?limit=20');
      for (const product of list.products) {
        const variant = product.variants.find(purchasable);
        if (variant) {
          state.variant = variant;
          return `${product.title}${variant.display_name ? ` (${variant.display_name})` : ''}: ${variant.price.amount} ${variant.price.currency}`;
        }
      }
      throw new Error('No purchasable variant with a price on the first page of the catalog.');
    },
    async key() {
      const key = await call('key', 'POST', '/sandbox/v1/keys');
      state.token = key.access_token;
      return `key with scopes ${key.scopes.join(', ')}, expires ${key.expires_at}`;
    },
    async cart() {
      const cart = await call('cart', 'POST', '/sandbox/v1/carts', {
        body: { currency: state.variant.price.currency },
        headers: { 'Idempotency-Key': idempotencyKey('cart') },
      });
      state.cartId = cart.id;
      return cart.id;
    },
    async item() {
      const cart = await call('item', 'POST', `/sandbox/v1/carts/${state.cartId}/items`, { body: { variant_id: state.variant.id, quantity: 1 } });
      return `item total ${cart.totals.item_total} ${cart.currency}`;
    },
    async address() {
      await call('address', 'POST', `/sandbox/v1/carts/${state.cartId}/shipping-address`, { body: ADDRESS });
      return `shipping to ${ADDRESS.city}, ${ADDRESS.country}`;
    },
    async shipping() {
      const { options } = await call('shipping', 'GET', `/sandbox/v1/carts/${state.cartId}/shipping-options`);
      const cart = await call('shipping', 'POST', `/sandbox/v1/carts/${state.cartId}/shipping-option`, { body: { shipping_option_id: options[0].id } });
      return `${cart.shipping_option.name}: ${cart.totals.shipping_total} ${cart.currency}`;
    },
    async checkout() {
      const cart = await call('checkout', 'POST', `/sandbox/v1/carts/${state.cartId}/checkout`, {
        headers: { 'Idempotency-Key': idempotencyKey('checkout') },
      });
      return `${cart.status}, grand total ${cart.totals.grand_total} ${cart.currency}`;
    },
  };

  const order = Object.keys(steps);

  async function run(button) {
    const step = button.dataset.run;
    const label = document.querySelector(`[data-state="${step}"]`);
    button.disabled = true;
    document.querySelector(`[data-exchanges="${step}"]`).replaceChildren();
    label.className = 'state running';
    label.textContent = 'running…';
    try {
      label.textContent = await steps[step]();
      label.className = 'state done';
      const next = order[order.indexOf(step) + 1];
      if (next) document.querySelector(`[data-run="${next}"]`).disabled = false;
    } catch (error) {
      label.className = 'state failed';
      label.textContent = error.message;
      button.disabled = false;
    }
  }

  for (const button of document.querySelectorAll('[data-run]')) button.addEventListener('click', () => run(button));
})();
