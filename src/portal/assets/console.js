// The operator console (the page /console; served under /docs/assets/ by the portal).
// Everything it shows comes from the admin API, called with the admin token the operator
// signs in with. The token is kept in this tab's sessionStorage only: never in a URL, a
// cookie or localStorage. Plain browser JavaScript, no dependencies; DOM built with
// textContent only, so nothing the API answers can become markup.
'use strict';

(() => {
  const API = '/admin/v1';
  const TOKEN_KEY = 'vetrina.console.token';
  const PAGE_SIZE = 20;
  const DELIVERIES_SHOWN = 50;
  /** How often a running import is asked for its progress. */
  const JOB_POLL_MS = 1000;
  const JOB_ENDED = ['succeeded', 'failed', 'cancelled'];
  /** Problems of a refused write shown under its message; the rest are counted. */
  const PROBLEMS_SHOWN = 10;

  const $ = (selector, root = document) => root.querySelector(selector);
  const element = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const button = (text, onClick, className) => {
    const node = element('button', className, text);
    node.type = 'button';
    node.addEventListener('click', onClick);
    return node;
  };
  const code = (text) => element('code', null, text);
  const count = (n) => (n === null || n === undefined ? '?' : Number(n).toLocaleString('en'));
  const time = (iso) => {
    if (!iso) return '—';
    const node = element('time', null, iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC'));
    node.dateTime = iso;
    return node;
  };
  const badge = (status) => element('span', `badge status-${status}`, status);

  // Money is sent in minor units (1650 is 16.50 EUR); the console shows and takes the
  // decimal amount, with as many decimals as the currency has.
  const fractionDigits = (currency) => new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
  const decimalAmount = (amount, currency) => {
    const digits = fractionDigits(currency);
    return digits === 0 ? String(amount) : (amount / 10 ** digits).toFixed(digits);
  };
  /** Minor units from a decimal amount as typed, or null when it is not one for the currency. */
  const minorUnits = (text, currency) => {
    const digits = fractionDigits(currency);
    const match = /^(\d{1,12})(?:[.,](\d*))?$/.exec(text.trim());
    if (!match || (match[2] ?? '').length > digits) return null;
    return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || 0);
  };

  // ---- the admin API

  /** A refusal of the admin API, in its envelope: `{error: {code, message, hint, details}}`. */
  class Refusal extends Error {
    constructor(status, error) {
      super(error.message);
      this.status = status;
      this.code = error.code;
      this.hint = error.hint ?? '';
      this.details = error.details ?? {};
    }
  }

  const session = { token: null, signedIn: false };

  /**
   * One call of the admin API with the session's token: the answer's JSON and ETag, or a
   * Refusal. A 401 while signed in (the token was removed from ADMIN_TOKENS) signs out.
   */
  async function api(method, path, { json, file, headers = {} } = {}) {
    const sent = { Authorization: `Bearer ${session.token}`, ...headers };
    if (json !== undefined || file !== undefined) sent['Content-Type'] = 'application/json';
    let response;
    try {
      response = await fetch(API + path, { method, headers: sent, body: file ?? (json === undefined ? undefined : JSON.stringify(json)), cache: 'no-store' });
    } catch {
      throw new Refusal(0, { code: 'UNREACHABLE', message: 'The server could not be reached.', hint: 'Check that it runs and try again.' });
    }
    const data = response.status === 204 ? null : await response.json().catch(() => null);
    if (response.ok) return { data, etag: response.headers.get('etag') };
    const refusal = new Refusal(response.status, data?.error ?? { code: `HTTP_${response.status}`, message: `The server answered ${response.status} ${response.statusText}.` });
    if (response.status === 401 && session.signedIn) signOut(`Signed out: the server no longer accepts the token (${refusal.message})`);
    throw refusal;
  }

  // ---- messages: problems go to an area with role="alert", confirmations to one with role="status"

  const messageArea = (name) => $(`[data-message="${name}"]`);
  const noteArea = (name) => $(`[data-note="${name}"]`);

  function clearMessages(name) {
    messageArea(name)?.replaceChildren();
    if (noteArea(name)) noteArea(name).textContent = '';
  }

  function note(name, text) {
    messageArea(name)?.replaceChildren();
    noteArea(name).textContent = text;
  }

  /** Shows a refusal: its status and code, message and hint, and the problems or rows it lists; `extra` nodes after them. */
  function showProblem(name, error, ...extra) {
    if (!(error instanceof Refusal)) throw error;
    if (noteArea(name)) noteArea(name).textContent = '';
    const area = messageArea(name);
    const head = element('p');
    head.append(element('strong', null, error.status ? `${error.status} ${error.code}` : error.code), `: ${error.message}`);
    area.replaceChildren(head);
    if (error.hint) area.append(element('p', 'hint', error.hint));
    const listed = error.details.problems ?? error.details.rows;
    if (Array.isArray(listed) && listed.length > 0) {
      const list = element('ul');
      for (const item of listed.slice(0, PROBLEMS_SHOWN)) list.append(element('li', null, `${item.path ?? item.sku ?? ''}: ${item.message}`));
      const total = error.details.problem_count ?? listed.length;
      if (total > PROBLEMS_SHOWN) list.append(element('li', null, `… and ${count(total - PROBLEMS_SHOWN)} more`));
      area.append(list);
    }
    area.append(...extra);
  }

  // ---- lists: a table body per list, paged by the API's cursors

  function fillTable(list, rows) {
    const body = $(`[data-list="${list}"] tbody`);
    const columns = $(`[data-list="${list}"] thead tr`).children.length;
    body.replaceChildren();
    if (rows.length === 0) {
      const cell = element('td', 'empty', 'Nothing to show.');
      cell.colSpan = columns;
      body.appendChild(element('tr')).append(cell);
      return;
    }
    for (const cells of rows) {
      const row = body.appendChild(element('tr'));
      for (const value of cells) row.appendChild(element('td')).append(value);
    }
  }

  /**
   * A list the API pages with cursors, PAGE_SIZE at a time: `path`, its table filled with
   * a row of cells, `rowOf(item)`, per item of the answer's array `key`. The cursors of the pages before are kept for "Previous page"; a page
   * that fails to load leaves the list where it was and says why. `filter` names the form
   * whose submission reads the list again from its first page, and the query parameter
   * each of its fields (by id) sets.
   */
  function paged(list, path, key, rowOf, filter = { form: null, fields: {} }) {
    let filters = {};
    // Only the latest request's page is shown: an earlier one answering later (the first page
    // asked for at sign-in, a search sent right after) must not replace it.
    // The table is aria-busy while that request is out, for screen readers and for anyone
    // waiting on the list's answer rather than on whatever rows it showed before.
    let latest = 0;
    const table = $(`[data-list="${list}"]`);
    const load = async (cursor) => {
      const request = ++latest;
      table.setAttribute('aria-busy', 'true');
      try {
        const { data } = await api('GET', `${path}${query({ ...filters, limit: PAGE_SIZE, cursor })}`);
        if (request !== latest) return undefined;
        fillTable(list, data[key].map(rowOf));
        return data.next_cursor;
      } catch (error) {
        // A refusal of a request no one waits for any more (one sent before sign-out) is not shown either.
        if (request !== latest) return undefined;
        throw error;
      } finally {
        if (request === latest) table.removeAttribute('aria-busy');
      }
    };
    const previous = $(`[data-pager="${list}"] [data-page="previous"]`);
    const next = $(`[data-pager="${list}"] [data-page="next"]`);
    let state = { before: [], current: undefined, next: null };
    const sync = () => {
      previous.disabled = state.before.length === 0;
      next.disabled = state.next === null;
    };
    const go = async (cursor, before) => {
      try {
        const nextCursor = await load(cursor);
        if (nextCursor === undefined) return;
        messageArea(list).replaceChildren();
        state = { before, current: cursor, next: nextCursor };
      } catch (error) {
        showProblem(list, error);
      }
      sync();
    };
    previous.addEventListener('click', () => go(state.before.at(-1), state.before.slice(0, -1)));
    next.addEventListener('click', () => go(state.next, [...state.before, state.current]));
    $(`#${filter.form}`)?.addEventListener('submit', (event) => {
      event.preventDefault();
      filters = Object.fromEntries(Object.entries(filter.fields).map(([name, id]) => [name, $(`#${id}`).value.trim()]));
      void go(undefined, []);
    });
    return {
      first: () => go(undefined, []),
      reload: () => go(state.current, state.before),
      clear: () => {
        // A request still out answers to no one once the list is cleared (at sign-out).
        latest += 1;
        table.removeAttribute('aria-busy');
        filters = {};
        state = { before: [], current: undefined, next: null };
        $(`[data-list="${list}"] tbody`).replaceChildren();
        sync();
      },
    };
  }

  const query = (parameters) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(parameters)) if (value !== undefined && value !== '') search.set(name, String(value));
    return `?${search}`;
  };

  // ---- products

  const products = paged(
    'products',
    '/products',
    'products',
    (product) => [button(product.title, () => openProduct(product.handle), 'link'), code(product.handle), badge(product.status), product.skus.join(', '), time(product.updated_at)],
    { form: 'product-search', fields: { q: 'product-q', status: 'product-status', sku: 'product-sku' } },
  );

  /** The product open in the editor, as GET /admin/v1/products/{handle} answered it, and its ETag. */
  let open = null;

  async function openProduct(handle) {
    try {
      const { data, etag } = await api('GET', `/products/${encodeURIComponent(handle)}`);
      open = { product: data.product, etag };
      clearMessages('product');
      renderProduct();
      $('#product').hidden = false;
      $('#product-heading').focus();
    } catch (error) {
      showProblem('products', error);
    }
  }

  /** Reads the open product again, keeping the message that says why. */
  async function reloadProduct() {
    const { data, etag } = await api('GET', `/products/${encodeURIComponent(open.product.handle)}`);
    open = { product: data.product, etag };
    renderProduct();
  }

  function renderProduct() {
    const { product } = open;
    $('#product-heading').textContent = product.translations.en.title;
    const facts = $('[data-product="facts"]');
    facts.replaceChildren(code(product.handle), ' ', badge(product.status), ` version ${product.version}, updated `, time(product.updated_at));
    $('[data-product="status"]').textContent = product.status === 'published' ? 'Withdraw (set to draft)' : 'Publish';
    $('[data-product="variants"]').replaceChildren(...product.variants.map(variantForm));
  }

  /** A stale If-Match: what was changed, its version now, and a button to read it again. */
  function showStale(error, what) {
    const current = error.details.current_version;
    const reload = button('Reload the product', async () => {
      try {
        await reloadProduct();
        note('product', `Reloaded: ${open.product.translations.en.title} as it is now. Make your change again.`);
      } catch (failure) {
        showProblem('product', failure);
      }
    });
    showProblem(
      'product',
      error,
      element('p', null, `Not saved: ${what} was changed since you opened it${current === undefined ? '' : ` (it is now at version ${current})`}. Reload to see it as it is now, then make your change again.`),
      reload,
    );
  }

  /** A write of the open product's: the answer, or the refusal shown (a 412 as stale) and null. */
  async function write(what, method, path, json, etag) {
    try {
      return (await api(method, path, { json, headers: { 'If-Match': etag } })).data;
    } catch (error) {
      if (error instanceof Refusal && error.status === 412) showStale(error, what);
      else showProblem('product', error);
      return null;
    }
  }

  async function toggleStatus() {
    const { product, etag } = open;
    const status = product.status === 'published' ? 'draft' : 'published';
    const data = await write(`the product ${product.handle}`, 'PATCH', `/products/${encodeURIComponent(product.handle)}`, { status }, etag);
    if (!data) return;
    open = { product: data.product, etag: `"${data.product.version}"` };
    renderProduct();
    note('product', status === 'published' ? `Published: ${product.handle} is served by the public catalog.` : `Withdrawn: ${product.handle} is a draft, no longer served.`);
    void products.reload();
    void audit.first();
  }

  const checkbox = (label, name, checked) => {
    const wrap = element('label', 'check');
    const input = element('input');
    input.type = 'checkbox';
    input.name = name;
    input.checked = checked;
    wrap.append(input, ` ${label}`);
    return wrap;
  };

  /** One variant's stock settings and prices, saved with its version in If-Match. */
  function variantForm(variant) {
    const form = element('form', 'variant console-form');
    form.dataset.sku = variant.sku;
    const fieldset = form.appendChild(element('fieldset'));
    const legend = fieldset.appendChild(element('legend', null, variant.sku));
    if (variant.options.length > 0) legend.append(` (${variant.options.join(', ')})`);
    legend.append(element('span', 'muted', ` version ${variant.version}`));

    const stock = element('label', null, 'Stock ');
    const quantity = stock.appendChild(element('input'));
    Object.assign(quantity, { type: 'number', name: 'inventory_quantity', min: '0', step: '1', value: String(variant.inventory_quantity) });
    fieldset.append(stock, checkbox('Count stock', 'manage_inventory', variant.manage_inventory), checkbox('Sell when out of stock', 'allow_backorder', variant.allow_backorder));

    const prices = element('table', 'prices');
    prices.append(element('caption', null, `Prices of ${variant.sku}`));
    const head = prices.appendChild(element('thead')).appendChild(element('tr'));
    for (const title of ['Currency', 'Region', 'Price']) head.appendChild(element('th', null, title)).scope = 'col';
    const rows = prices.appendChild(element('tbody'));
    const inputs = variant.prices.map((price) => {
      const input = element('input');
      Object.assign(input, { type: 'text', inputMode: 'decimal', value: decimalAmount(price.amount, price.currency), size: 10 });
      input.setAttribute('aria-label', `Price in ${price.currency}${price.region ? ` for ${price.region}` : ''}`);
      const row = rows.appendChild(element('tr'));
      row.append(element('td', null, price.currency), element('td', null, price.region ?? 'any'));
      row.appendChild(element('td')).append(input);
      return { price, input };
    });
    fieldset.append(prices);
    const save = fieldset.appendChild(element('button', null, 'Save'));
    save.type = 'submit';

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const patch = {};
      const typed = Number(quantity.value);
      if (!Number.isInteger(typed) || typed < 0 || quantity.value.trim() === '') return note('product', `${variant.sku}: stock must be a whole number, 0 or more.`);
      if (typed !== variant.inventory_quantity) patch.inventory_quantity = typed;
      for (const name of ['manage_inventory', 'allow_backorder']) if (form.elements[name].checked !== variant[name]) patch[name] = form.elements[name].checked;
      const changed = [];
      for (const { price, input } of inputs) {
        const amount = minorUnits(input.value, price.currency);
        if (amount === null) return note('product', `${variant.sku}: "${input.value}" is not an amount in ${price.currency} (such as ${decimalAmount(1650, price.currency)}).`);
        if (amount !== price.amount) changed.push({ currency: price.currency, ...(price.region && { region: price.region }), amount });
      }
      if (changed.length > 0) patch.prices = changed;
      if (Object.keys(patch).length === 0) return note('product', `${variant.sku}: nothing changed.`);
      save.disabled = true;
      const data = await write(`the variant ${variant.sku}`, 'PATCH', `/variants/${encodeURIComponent(variant.id)}`, patch, `"${variant.version}"`);
      save.disabled = false;
      if (!data) return;
      const { product_id: _productId, product_handle: _productHandle, ...saved } = data.variant;
      open.product.variants = open.product.variants.map((each) => (each.id === saved.id ? saved : each));
      form.replaceWith(variantForm(saved));
      note('product', `Saved ${saved.sku}: now at version ${saved.version}.`);
      void audit.first();
    });
    return form;
  }

  // ---- imports

  /** The import shown in the job panel, polled until it ends. */
  let watched = null;

  const imports = paged('imports', '/imports', 'jobs', (job) => [
    time(job.created_at),
    job.actor,
    badge(job.status),
    job.progress.total_products === null ? count(job.progress.written) : `${count(job.progress.written)} of ${count(job.progress.total_products)}`,
    `${job.catalog_versions.before} → ${job.catalog_versions.after ?? '…'}`,
    button('Show', () => watch(job)),
  ]);

  /** How far the job is, 0 to 1, or null when it cannot tell yet (a queued job, a size not known). */
  function fraction({ phase, progress }) {
    if (phase === 'done') return 1;
    if (phase === 'validating' && progress.total_bytes) return (progress.bytes_read ?? 0) / progress.total_bytes;
    if (phase === 'writing' && progress.total_products) return progress.written / progress.total_products;
    return null;
  }

  function progressText({ status, phase, progress }) {
    const parts = [`Validated ${count(progress.validated)} products`];
    if (phase === 'validating' && progress.total_bytes) parts.push(`${count(progress.bytes_read)} of ${count(progress.total_bytes)} bytes read`);
    parts.push(`written ${count(progress.written)}${progress.total_products === null ? '' : ` of ${count(progress.total_products)}`}`);
    if (!JOB_ENDED.includes(status)) {
      parts.push(`${count(progress.per_second)} a second`);
      if (progress.eta_seconds !== null) parts.push(`about ${count(progress.eta_seconds)} s left`);
    }
    return `${parts.join(', ')}.`;
  }

  const definitions = (entries) => {
    const list = element('dl', 'report');
    for (const [term, value] of entries) list.append(element('dt', null, term), element('dd', null, value));
    return list;
  };
  const names = (handles) => (handles.length === 0 ? 'none' : `${count(handles.length)}: ${handles.slice(0, 10).join(', ')}${handles.length > 10 ? ', …' : ''}`);

  function jobOutcome(job) {
    const nodes = [];
    if (job.error) {
      const refusal = element('div', 'problem');
      refusal.appendChild(element('p')).append(element('strong', null, job.error.code), `: ${job.error.message}`);
      const problems = job.error.details?.problems;
      if (Array.isArray(problems)) {
        const list = refusal.appendChild(element('ul'));
        for (const problem of problems.slice(0, PROBLEMS_SHOWN)) list.append(element('li', null, `${problem.path}: ${problem.message}`));
        const total = job.error.details.problem_count ?? problems.length;
        if (total > PROBLEMS_SHOWN) list.append(element('li', null, `… and ${count(total - PROBLEMS_SHOWN)} more`));
      }
      nodes.push(refusal);
    }
    const report = job.report;
    if (report) {
      nodes.push(element('h4', null, job.status === 'succeeded' ? 'Report' : 'Written before it stopped'));
      nodes.push(
        definitions([
          ['Products', `${count(report.products.created)} created, ${count(report.products.updated)} updated`],
          ['Variants', `${count(report.variants.created)} created, ${count(report.variants.updated)} updated, ${count(report.variants.removed.length)} removed`],
          ['Regions', `${count(report.regions.created)} created, ${count(report.regions.updated)} updated, ${count(report.regions.unchanged)} unchanged`],
          ...(report.regions.conflicts.length === 0
            ? []
            : [['Countries kept where an admin put them', report.regions.conflicts.map((conflict) => `${conflict.country} in ${conflict.kept_in} (the file: ${conflict.file_region ?? 'no region'})`).join('; ')]]),
          ['In the store, not in the file', names(report.missing)],
          ['Set to draft', names(report.unpublished)],
          ['Catalog version', `${job.catalog_versions.before} → ${job.catalog_versions.after ?? report.catalog_version}`],
        ]),
      );
    }
    return nodes;
  }

  function renderJob(job) {
    const panel = $('[data-job]');
    panel.hidden = false;
    $('#job-heading').textContent = `Import ${job.id}`;
    const status = $('[data-job="status"]');
    status.className = `badge status-${job.status}`;
    status.textContent = job.status;
    $('[data-job="phase"]').textContent = `phase ${job.phase}, by ${job.actor}${job.unpublish_missing ? ', setting products the file lacks to draft' : ''}`;
    const bar = $('[data-job="progress"]');
    const done = fraction(job);
    if (done === null) bar.removeAttribute('value');
    else bar.value = done;
    $('[data-job="counts"]').textContent = progressText(job);
    const cancel = $('[data-job="cancel"]');
    cancel.hidden = JOB_ENDED.includes(job.status);
    cancel.disabled = job.status === 'cancelling';
    $('[data-job="outcome"]').replaceChildren(...jobOutcome(job));
  }

  /** Shows the job and, until it ends, asks for it again every JOB_POLL_MS; a job watched instead, or a sign-out, stops it. */
  function watch(job) {
    clearTimeout(watched?.timer);
    watched = { id: job.id, timer: undefined };
    renderJob(job);
    $('#job-heading').focus();
    if (!JOB_ENDED.includes(job.status)) schedule(job.id);
  }

  function schedule(id) {
    watched.timer = setTimeout(async () => {
      let job;
      try {
        job = (await api('GET', `/imports/${encodeURIComponent(id)}`)).data.job;
      } catch (error) {
        if (watched?.id === id) showProblem('imports', error);
        return;
      }
      if (watched?.id !== id) return;
      renderJob(job);
      if (!JOB_ENDED.includes(job.status)) return schedule(id);
      note('imports', `The import ${job.status}.`);
      void imports.reload();
      void audit.first();
      if (open) void reloadProduct().catch((error) => showProblem('product', error));
    }, JOB_POLL_MS);
  }

  async function startImport(event) {
    event.preventDefault();
    const [file] = $('#import-file').files;
    if (!file) return;
    const start = $('#import-form button[type="submit"]');
    start.disabled = true;
    note('imports', `Uploading ${file.name} (${count(file.size)} bytes)…`);
    try {
      const { data } = await api('POST', `/imports${query({ unpublish_missing: $('#import-unpublish').checked ? 'true' : undefined })}`, { file });
      note('imports', `Uploaded ${file.name}: the import runs on the server, and goes on if you leave this page.`);
      watch(data.job);
      void imports.first();
    } catch (error) {
      showProblem('imports', error);
    } finally {
      start.disabled = false;
    }
  }

  async function cancelImport() {
    try {
      renderJob((await api('POST', `/imports/${encodeURIComponent(watched.id)}/cancel`)).data.job);
      note('imports', 'Cancelling: the import stops when the batch it is writing is committed.');
    } catch (error) {
      showProblem('imports', error);
    }
  }

  // ---- audit

  const audit = paged(
    'audit',
    '/audit',
    'entries',
    (entry) => [
      time(entry.at),
      entry.actor,
      entry.action,
      `${entry.target_type} ${entry.target_id}`,
      `${entry.version_before ?? '—'} → ${entry.version_after ?? '—'}`,
      element('code', 'changes', JSON.stringify(entry.changes)),
    ],
    { form: 'audit-filter', fields: { actor: 'audit-actor', target_type: 'audit-target-type', target_id: 'audit-target-id' } },
  );

  // ---- webhooks

  async function loadWebhooks() {
    try {
      const { data } = await api('GET', '/webhooks');
      messageArea('webhooks').replaceChildren();
      fillTable(
        'webhooks',
        data.webhooks.map((webhook) => {
          const status = element('span');
          status.append(badge(webhook.status));
          if (webhook.paused_reason) status.append(` ${webhook.paused_reason}`);
          const created = element('span');
          created.append(time(webhook.created_at), ` by ${webhook.created_by}`);
          return [code(webhook.url), webhook.kind, webhook.event_types.join(', ') || '—', status, created, button('Deliveries', () => showDeliveries(webhook))];
        }),
      );
    } catch (error) {
      showProblem('webhooks', error);
    }
  }

  async function showDeliveries(webhook) {
    try {
      const { data } = await api('GET', `/webhooks/${encodeURIComponent(webhook.id)}/deliveries${query({ limit: DELIVERIES_SHOWN })}`);
      fillTable(
        'deliveries',
        data.deliveries.map((delivery) => [
          delivery.event_type,
          badge(delivery.status),
          count(delivery.attempts),
          delivery.last_status_code === null ? (delivery.last_error ?? '—') : String(delivery.last_status_code),
          time(delivery.created_at),
          time(delivery.delivered_at),
        ]),
      );
      $('[data-deliveries]').hidden = false;
      $('#deliveries-heading').textContent = `Recent deliveries to ${webhook.url}`;
      $('#deliveries-heading').focus();
    } catch (error) {
      showProblem('webhooks', error);
    }
  }

  // ---- signing in and out

  function showConsole(signedIn) {
    session.signedIn = signedIn;
    $('#sign-in').hidden = signedIn;
    $('#console').hidden = !signedIn;
  }

  /** Checks the token with one read; only a token the API accepts is kept, for this tab. */
  async function signIn(token) {
    session.token = token;
    try {
      await api('GET', `/audit${query({ limit: 1 })}`);
    } catch (error) {
      session.token = null;
      sessionStorage.removeItem(TOKEN_KEY);
      showProblem('sign-in', error);
      return;
    }
    sessionStorage.setItem(TOKEN_KEY, token);
    $('#sign-in-form').reset();
    clearMessages('sign-in');
    showConsole(true);
    // Recent imports are listed when asked for, or when an import is started here.
    await Promise.all([products.first(), audit.first(), loadWebhooks()]);
  }

  /** Forgets the token and everything shown with it. */
  function signOut(message) {
    sessionStorage.removeItem(TOKEN_KEY);
    session.token = null;
    clearTimeout(watched?.timer);
    watched = null;
    open = null;
    for (const list of [products, imports, audit]) list.clear();
    for (const list of ['webhooks', 'deliveries']) $(`[data-list="${list}"] tbody`).replaceChildren();
    for (const form of document.querySelectorAll('#console form')) form.reset();
    for (const name of ['products', 'product', 'imports', 'audit', 'webhooks']) clearMessages(name);
    for (const hidden of ['#product', '[data-job]', '[data-deliveries]']) $(hidden).hidden = true;
    showConsole(false);
    if (message) showProblem('sign-in', new Refusal(401, { code: 'UNAUTHORIZED', message }));
    else note('sign-in', 'Signed out: the token is forgotten.');
    $('#sign-in-token').focus();
  }

  $('#sign-in-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void signIn($('#sign-in-token').value.trim());
  });
  $('#sign-out').addEventListener('click', () => signOut());
  $('[data-product="status"]').addEventListener('click', toggleStatus);
  $('[data-product="reload"]').addEventListener('click', async () => {
    try {
      await reloadProduct();
      note('product', 'Reloaded.');
    } catch (error) {
      showProblem('product', error);
    }
  });
  $('#import-form').addEventListener('submit', startImport);
  $('[data-job="cancel"]').addEventListener('click', cancelImport);
  $('[data-refresh="imports"]').addEventListener('click', () => imports.first());
  $('[data-refresh="webhooks"]').addEventListener('click', loadWebhooks);

  // A reload of the tab keeps the session; a new tab starts signed out.
  const kept = sessionStorage.getItem(TOKEN_KEY);
  if (kept) void signIn(kept);
  else showConsole(false);
})();
