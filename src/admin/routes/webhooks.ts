import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { WebhookConfig } from '../../config.js';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '../../delivery/events.js';
import { SUBSCRIPTION_KINDS, type SubscriptionKind } from '../../delivery/kinds.js';
import { DELIVERY_RETENTION_MS } from '../../delivery/subscriptions.js';
import { AdminProblem } from '../errors.js';
import { errorResponses, ok } from '../schemas.js';
import { actorOf, security, type AdminRouteKit } from './shared.js';

const requestId = Type.String({ format: 'uuid' });
const WebhookParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const Webhook = Type.Object({
  id: Type.String(),
  kind: Type.String({
    enum: [...SUBSCRIPTION_KINDS],
    description:
      '`catalog`: subscribed here to catalog events. `ucp_order`: a UCP platform\'s order webhook (the `webhook_url` of its profile), made by its first simulated order and signed with the business key of `/.well-known/ucp` (docs/ucp.md, Order events); it can be paused, resumed and deleted here, and the next order makes a deleted one again. `acp_feed`: the ACP Feed API that catalog changes are pushed to (ACP_FEED_PUSH_URL, docs/acp.md, Pushing changes), made by the first change pushed, likewise.',
  }),
  url: Type.String(),
  event_types: Type.Array(Type.String({ enum: [...EVENT_TYPES] }), { description: 'The catalog events it takes; empty for the other kinds, which take the events their feature writes for them.' }),
  description: Type.Union([Type.String(), Type.Null()]),
  status: Type.String({ enum: ['active', 'paused'] }),
  paused_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why it is paused: by whom, or which delivery failed how often and how (the last status code or error).' }),
  paused_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_by: Type.String({ description: 'The admin token that created it; `ucp` for a `ucp_order` webhook.' }),
  created_at: Type.String({ format: 'date-time' }),
});

const Delivery = Type.Object({
  id: Type.String(),
  event_id: Type.String({ description: 'The event\'s id, sent as `webhook-id` on every attempt.' }),
  event_type: Type.String(),
  status: Type.String({ enum: ['pending', 'delivered', 'failed'], description: 'failed: given up after its attempts (the subscription was paused).' }),
  attempts: Type.Integer({ minimum: 0 }),
  created_at: Type.String({ format: 'date-time' }),
  next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_status_code: Type.Union([Type.Integer(), Type.Null()], { description: 'The status the receiver answered the last attempt with; null when it did not answer.' }),
  last_error: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed; null when it succeeded.' }),
  delivered_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const WebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2000, description: 'An http(s) URL the events are POSTed to.' }),
    event_types: Type.Array(Type.String({ enum: [...EVENT_TYPES] }), { minItems: 1, maxItems: EVENT_TYPES.length, uniqueItems: true }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

const WebhookAnswer = Type.Object({ webhook: Webhook, request_id: requestId });
const CreatedAnswer = Type.Object({
  webhook: Webhook,
  secret: Type.String({ description: 'The signing secret (`whsec_` and base64): shown this once, never again. Verify each request\'s `webhook-signature` with it.' }),
  request_id: requestId,
});
const DeliveriesQuery = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }) }, { additionalProperties: false });

const NOT_FOUND = 'NOT_FOUND: no webhook has this id.';

/** What sends an event to a webhook of a kind that takes no test event. */
const TEST_EVENT_INSTEAD: Record<Exclude<SubscriptionKind, 'catalog'>, string> = {
  ucp_order: 'Complete a checkout as the platform to send it an order event.',
  acp_order: 'Complete a checkout session with the sandbox key that registered it to send it its order events.',
  acp_feed: 'Change a product of the catalog to push it an upsert.',
};

function notFound(): AdminProblem {
  return new AdminProblem('NOT_FOUND', 'No webhook has this id.', 'GET /admin/v1/webhooks lists them.');
}

function found<T>(value: T | undefined): T {
  if (value === undefined) throw notFound();
  return value;
}

const targetRules = (config: WebhookConfig) =>
  config.allowPrivateTargets
    ? 'Any http(s) target is accepted on this deployment (WEBHOOK_ALLOW_PRIVATE_TARGETS).'
    : 'A target in a private, loopback or link-local range is refused: an address in the URL here (400), a name that resolves to one at each attempt (the attempt fails).';

/** /admin/v1/webhooks: subscriptions to catalog events, their test events and deliveries. */
export function webhookRoutes(app: FastifyInstance, { webhooks, webhookConfig }: AdminRouteKit): void {
  const retries = `An attempt is delivered when the receiver answers 2xx within ${webhookConfig.timeoutMs} ms; anything else, a redirect included, fails it. A failed delivery is retried with exponential backoff and jitter, up to ${webhookConfig.maxAttempts} attempts within ${webhookConfig.retryForMs} ms of the event; then it is given up and the subscription paused, with the reason in \`paused_reason\`.`;

  app.post<{ Body: Static<typeof WebhookBody> }>(
    '/webhooks',
    {
      schema: {
        operationId: 'adminCreateWebhook',
        tags: ['webhooks'],
        summary: 'Subscribe a URL to catalog events',
        description: `Each event is POSTed as JSON \`{ id, type, timestamp, catalog_version, data }\`, signed as the Standard Webhooks specification says (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`) with the secret in this answer, which is never shown again. ${targetRules(webhookConfig)} ${retries} docs/webhooks.md shows how to verify the signature.`,
        security,
        body: WebhookBody,
        response: { 201: ok('Created; `secret` is shown only here', CreatedAnswer), ...errorResponses({ 400: 'INVALID_REQUEST: a schema violation, a URL that is not http(s), or a target address that is refused.' }) },
      },
    },
    async (request, reply) => {
      const refused = webhooks.refusedTarget(request.body.url, 'catalog');
      if (refused !== undefined) {
        throw new AdminProblem('INVALID_REQUEST', `Invalid request: body.url is refused: ${refused}.`, 'Send an http or https URL without credentials, at a public address; nothing was written.');
      }
      const { subscription, secret } = await webhooks.create(actorOf(request), request.body);
      return reply.code(201).send({ webhook: subscription, secret, request_id: request.id });
    },
  );

  app.get(
    '/webhooks',
    {
      schema: {
        operationId: 'adminListWebhooks',
        tags: ['webhooks'],
        summary: 'List webhooks',
        description: 'Every subscription, of every kind, oldest first, without secrets.',
        security,
        response: { 200: ok('The webhooks', Type.Object({ webhooks: Type.Array(Webhook), request_id: requestId })), ...errorResponses({}) },
      },
    },
    async (request) => ({ webhooks: await webhooks.list(), request_id: request.id }),
  );

  app.get<{ Params: Static<typeof WebhookParams> }>(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'adminGetWebhook',
        tags: ['webhooks'],
        summary: 'Read a webhook',
        description: 'The subscription, without its secret; `paused_reason` says why it is paused.',
        security,
        params: WebhookParams,
        response: { 200: ok('The webhook', WebhookAnswer), ...errorResponses({ 404: NOT_FOUND }) },
      },
    },
    async (request) => ({ webhook: found(await webhooks.get(request.params.id)), request_id: request.id }),
  );

  app.post<{ Params: Static<typeof WebhookParams> }>(
    '/webhooks/:id/pause',
    {
      schema: {
        operationId: 'adminPauseWebhook',
        tags: ['webhooks'],
        summary: 'Pause a webhook',
        description: 'Nothing is sent while paused, and events meanwhile make no deliveries for it; deliveries already waiting wait for the resume. Pausing a paused webhook changes nothing.',
        security,
        params: WebhookParams,
        response: { 200: ok('The paused webhook', WebhookAnswer), ...errorResponses({ 404: NOT_FOUND }) },
      },
    },
    async (request) => ({ webhook: found(await webhooks.pause(request.params.id, actorOf(request))), request_id: request.id }),
  );

  app.post<{ Params: Static<typeof WebhookParams> }>(
    '/webhooks/:id/resume',
    {
      schema: {
        operationId: 'adminResumeWebhook',
        tags: ['webhooks'],
        summary: 'Resume a webhook',
        description: 'Makes it active again: waiting deliveries are sent, and new events make deliveries. Deliveries given up stay failed.',
        security,
        params: WebhookParams,
        response: { 200: ok('The active webhook', WebhookAnswer), ...errorResponses({ 404: NOT_FOUND }) },
      },
    },
    async (request) => ({ webhook: found(await webhooks.resume(request.params.id)), request_id: request.id }),
  );

  app.delete<{ Params: Static<typeof WebhookParams> }>(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'adminDeleteWebhook',
        tags: ['webhooks'],
        summary: 'Delete a webhook',
        description: 'Deletes the subscription and its deliveries; nothing more is sent to it.',
        security,
        params: WebhookParams,
        response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses({ 404: NOT_FOUND }) },
      },
    },
    async (request, reply) => {
      if (!(await webhooks.delete(request.params.id))) throw notFound();
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof WebhookParams> }>(
    '/webhooks/:id/test',
    {
      schema: {
        operationId: 'adminTestWebhook',
        tags: ['webhooks'],
        summary: 'Send a test event',
        description: `Queues a \`${TEST_EVENT_TYPE}\` event for this catalog webhook, whatever its event types, signed and retried like any other; the answer is its delivery, whose outcome GET /admin/v1/webhooks/{id}/deliveries shows. 409 while the webhook is paused, and for a webhook of another kind, which takes only the events its feature writes for it (a UCP platform's orders, an ACP Feed API's upserts).`,
        security,
        params: WebhookParams,
        response: {
          202: ok('Queued', Type.Object({ delivery: Delivery, request_id: requestId })),
          ...errorResponses({ 404: NOT_FOUND, 409: 'CONFLICT: the webhook is paused (resume it first), or is not a catalog webhook.' }),
        },
      },
    },
    async (request, reply) => {
      const webhook = found(await webhooks.get(request.params.id));
      if (webhook.kind !== 'catalog') {
        throw new AdminProblem(
          'CONFLICT',
          `A ${webhook.kind} webhook takes only the events its feature writes for it: no test event is sent to it.`,
          TEST_EVENT_INSTEAD[webhook.kind],
        );
      }
      if (webhook.status === 'paused') throw new AdminProblem('CONFLICT', 'The webhook is paused: nothing is sent to it.', 'POST /admin/v1/webhooks/{id}/resume first.');
      return reply.code(202).send({ delivery: await webhooks.sendTest(webhook.id), request_id: request.id });
    },
  );

  app.get<{ Params: Static<typeof WebhookParams>; Querystring: Static<typeof DeliveriesQuery> }>(
    '/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'adminListWebhookDeliveries',
        tags: ['webhooks'],
        summary: 'Recent deliveries of a webhook',
        description: `Its newest deliveries first, with their status, attempts, last status code and error, and times; delivered and given-up deliveries are kept ${DELIVERY_RETENTION_MS / 86_400_000} days. ${retries}`,
        security,
        params: WebhookParams,
        querystring: DeliveriesQuery,
        response: { 200: ok('The deliveries', Type.Object({ deliveries: Type.Array(Delivery), request_id: requestId })), ...errorResponses({ 404: NOT_FOUND }) },
      },
    },
    async (request) => {
      found(await webhooks.get(request.params.id));
      return { deliveries: await webhooks.deliveries(request.params.id, request.query.limit), request_id: request.id };
    },
  );
}
