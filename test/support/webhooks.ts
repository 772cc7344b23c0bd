import assert from 'node:assert/strict';
import { loadConfig, type WebhookConfig } from '../../src/config.js';
import type { AdminCall } from './admin.js';
import { pollUntil } from './poll.js';

/** Webhook settings for tests: receivers on 127.0.0.1 allowed, quick rounds, retries within milliseconds. */
export function webhookSettings(overrides: Partial<WebhookConfig> = {}): WebhookConfig {
  return { ...loadConfig().webhooks, allowPrivateTargets: true, pollMs: 20, retryBaseMs: 1, retryMaxDelayMs: 5, maxAttempts: 3, ...overrides };
}

/** Only a hang guard: deliveries take a few rounds of 20 ms; a busy machine takes longer. */
export const DELIVERED_WITHIN_MS = 30_000;

/** Subscribes `url` to product.updated (unless told other types); returns the webhook and its secret. */
export async function subscribe(admin: AdminCall, url: string, eventTypes = ['product.updated']): Promise<{ id: string; secret: string }> {
  const response = await admin('POST', '/admin/v1/webhooks', { url, event_types: eventTypes });
  assert.equal(response.statusCode, 201, response.body);
  return { id: response.data.webhook.id, secret: response.data.secret };
}

/** A content change of `handle` through the admin API (its English title set to `title`): one product.updated event. */
export async function changeProduct(admin: AdminCall, handle: string, title: string): Promise<void> {
  const response = await admin('PATCH', `/admin/v1/products/${handle}`, { translations: { en: { title } } });
  assert.equal(response.statusCode, 200, response.body);
}

/** Waits until the webhook's deliveries satisfy `done`, and returns them (newest first). */
export async function waitForDeliveries(admin: AdminCall, id: string, done: (deliveries: any[]) => boolean): Promise<any[]> {
  const { value } = await pollUntil(async () => (await admin('GET', `/admin/v1/webhooks/${id}/deliveries`)).data.deliveries as any[], done, DELIVERED_WITHIN_MS);
  return value;
}
