import { SCOPES } from '../../src/sandbox/scopes.js';
import { VALID_ADDRESS } from './sandbox.js';

export interface CartRouteCase {
  name: string;
  method: string;
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  /** The scope the route needs (docs/decisions.md, Scope per route). */
  scope: 'cart:write' | 'checkout:create';
  /** The status of a key lacking the scope: 401 on the explicit routes, 403 on checkout and the compatibility route. */
  insufficientStatus: 401 | 403;
  /** Whether the route works on an existing cart (and so answers 404 for another key's). */
  onCart: boolean;
}

/** Every authenticated sandbox route with a valid request, so only the key decides the answer. */
export function cartRoutes(cartId: string, variantId: string): CartRouteCase[] {
  const cart = `/sandbox/v1/carts/${cartId}`;
  const action = (payload: object, scope: CartRouteCase['scope'] = 'cart:write'): Omit<CartRouteCase, 'name'> => ({
    method: 'POST',
    url: cart,
    payload,
    scope,
    insufficientStatus: 403,
    onCart: true,
  });
  return [
    { name: 'POST /carts', method: 'POST', url: '/sandbox/v1/carts', payload: {}, headers: { 'idempotency-key': 'matrix' }, scope: 'cart:write', insufficientStatus: 401, onCart: false },
    { name: 'GET /carts/{id}', method: 'GET', url: cart, scope: 'cart:write', insufficientStatus: 401, onCart: true },
    { name: 'POST /carts/{id}/items', method: 'POST', url: `${cart}/items`, payload: { variant_id: variantId, quantity: 1 }, scope: 'cart:write', insufficientStatus: 401, onCart: true },
    { name: 'POST /carts/{id}/items/{variant_id}', method: 'POST', url: `${cart}/items/${variantId}`, payload: { quantity: 1 }, scope: 'cart:write', insufficientStatus: 401, onCart: true },
    { name: 'DELETE /carts/{id}/items', method: 'DELETE', url: `${cart}/items?variant_id=${variantId}`, scope: 'cart:write', insufficientStatus: 401, onCart: true },
    { name: 'POST /carts/{id}/shipping-address', method: 'POST', url: `${cart}/shipping-address`, payload: VALID_ADDRESS, scope: 'cart:write', insufficientStatus: 401, onCart: true },
    { name: 'GET /carts/{id}/shipping-options', method: 'GET', url: `${cart}/shipping-options`, scope: 'cart:write', insufficientStatus: 401, onCart: true },
    { name: 'POST /carts/{id}/shipping-option', method: 'POST', url: `${cart}/shipping-option`, payload: { shipping_option_id: 'sandbox_standard' }, scope: 'cart:write', insufficientStatus: 401, onCart: true },
    { name: 'POST /carts/{id}/checkout', method: 'POST', url: `${cart}/checkout`, payload: {}, headers: { 'idempotency-key': 'matrix' }, scope: 'checkout:create', insufficientStatus: 403, onCart: true },
    { name: 'POST /carts/{id} add_item', ...action({ action: 'add_item', variant_id: variantId, quantity: 1 }) },
    { name: 'POST /carts/{id} set_shipping_address', ...action({ action: 'set_shipping_address', address: VALID_ADDRESS }) },
    { name: 'POST /carts/{id} select_shipping_option', ...action({ action: 'select_shipping_option', shipping_option_id: 'sandbox_standard' }) },
    { name: 'POST /carts/{id} checkout_link', ...action({ action: 'checkout_link' }, 'checkout:create') },
  ];
}

export const ALL_SCOPES = [...SCOPES];
