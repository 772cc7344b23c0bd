import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { BULK_MAX_ROWS, type RowResult } from '../../catalog/store/write/bulk.js';
import { BulkReport, errorResponses, InventoryBody, ok, priceSetting, PricesBody } from '../schemas.js';
import { actorOf, security, type AdminRouteKit } from './shared.js';

const ALL_OR_NOTHING = `All or nothing: when any row is refused nothing is written, and the 400 lists every refused row in details.rows (\`index\`, \`sku\`, \`code\`, \`message\`; codes UNKNOWN_SKU, DUPLICATE_ROW, EMPTY_ROW, UNKNOWN_REGION, CURRENCY_MISMATCH, UNKNOWN_CURRENCY (no region sells in the currency), VERSION_MISMATCH); when the only refusals are VERSION_MISMATCH (a row's \`if_version\`) it is 412. On success, the report gives each row's variant and its new version. 1 to ${BULK_MAX_ROWS} rows.`;

const refusals = {
  400: 'INVALID_REQUEST: a schema violation (the message names the row and field), or refused rows (details.rows); nothing was written.',
  412: 'PRECONDITION_FAILED: every refused row has a stale if_version (details.rows); nothing was written.',
};

/** POST /admin/v1/inventory and /admin/v1/prices: stock and prices for many SKUs at once. */
export function bulkRoutes(app: FastifyInstance, { service }: AdminRouteKit): void {
  const route = <R>(url: string, operationId: string, summary: string, description: string, body: TSchema, write: (actor: string, rows: R[]) => Promise<RowResult[]>) =>
    app.post<{ Body: { rows: R[] } }>(
      url,
      {
        schema: {
          operationId,
          tags: ['bulk'],
          summary,
          description: `${description} ${ALL_OR_NOTHING}`,
          security,
          body,
          response: { 200: ok('Every row was written', BulkReport), ...errorResponses(refusals) },
        },
      },
      async (request: FastifyRequest<{ Body: { rows: R[] } }>) => ({ rows: report(await write(actorOf(request), request.body.rows)), request_id: request.id }),
    );

  route(
    '/inventory',
    'adminSetInventory',
    'Set stock by SKU',
    'Each row names a SKU and sets at least one of `manage_inventory`, `inventory_quantity`, `allow_backorder`; one row per SKU.',
    InventoryBody,
    (actor, rows: Static<typeof InventoryBody>['rows']) => service.setInventory(actor, rows),
  );
  route(
    '/prices',
    'adminSetPrices',
    'Set prices by SKU',
    'Each row sets (or, with `amount: null`, removes) the price of a SKU in a currency, region-specific when `region` is given (`region_id`, its former name, is still accepted) (the region must sell in that currency); one row per SKU, currency and region.',
    PricesBody,
    (actor, rows: Static<typeof PricesBody>['rows']) => service.setPrices(actor, rows.map((row, index) => priceSetting(row, `body.rows[${index}]`))),
  );
}

function report(results: RowResult[]) {
  return results.map((result) => ({ index: result.index, sku: result.sku, variant_id: result.variantId, version: result.versionAfter }));
}
