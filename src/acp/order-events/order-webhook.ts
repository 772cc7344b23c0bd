import { Type, type Static } from 'typebox';
import { CHECKOUT_SCOPE } from '../../sandbox/scopes.js';
import { ACP_PATHS } from '../endpoints.js';
import { AcpProblem } from '../errors.js';
import type { AcpOperation, AcpOperationKit } from '../operation.js';
import { ORDER_EVENTS } from './order-events.js';

const MAX_URL_LENGTH = 2048;
const MIN_SECRET_LENGTH = 16;
const MAX_SECRET_LENGTH = 256;

const OrderWebhookRequest = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: 'Where the events of this key\'s orders are POSTed: the agent\'s order events receiver (the release\'s postOrderEvents).' }),
    secret: Type.Optional(
      Type.String({
        minLength: MIN_SECRET_LENGTH,
        maxLength: MAX_SECRET_LENGTH,
        description: `The HMAC-SHA256 key (its UTF-8 bytes) that signs the events from now on, ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters. Omitted: a new webhook gets a generated one, answered this once; an existing one keeps its own.`,
      }),
    ),
  },
  { additionalProperties: false },
);
type OrderWebhookRequest = Static<typeof OrderWebhookRequest>;

const OrderWebhookSchema = Type.Object(
  {
    url: Type.String({ format: 'uri' }),
    status: Type.Union([Type.Literal('active'), Type.Literal('paused')], { description: 'paused (by an operator) sends nothing until resumed.' }),
    paused_reason: Type.Optional(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    secret: Type.Optional(Type.String({ description: 'The generated signing secret: only in the answer that made it, never again.' })),
  },
  { title: 'AcpOrderWebhook' },
);

const EVENTS = ORDER_EVENTS.map(({ type, stage }) => `${type} (the order ${stage})`).join(', then ');
const PATH = ACP_PATHS.orderWebhook.slice(ACP_PATHS.prefix.length);
const NOT_FOUND = '404 not_found: the key has no order webhook.';
const KEY = `Needs a sandbox key with ${CHECKOUT_SCOPE}; the webhook is the key's, expires with it and is deleted with it.`;

/**
 * The order webhook of the calling sandbox key (docs/acp.md, Order events): the release
 * defines the agent's receiver of order events but not how a merchant learns it, so
 * the sandbox takes it here.
 */
export function orderWebhookOperations({ config, orderEvents }: AcpOperationKit): AcpOperation<any>[] {
  const targets = config.webhooks.allowPrivateTargets
    ? 'Any http(s) URL is accepted on this deployment (WEBHOOK_ALLOW_PRIVATE_TARGETS).'
    : 'It must be https; an address in it in a private, loopback or link-local range is 400 invalid_url, and a name that resolves to one fails each attempt.';
  const retries = `A delivery is retried while the receiver answers anything but 2xx within ${config.webhooks.timeoutMs} ms, with exponential backoff, up to ${config.webhooks.maxAttempts} attempts within ${config.webhooks.retryForMs} ms of the event.`;

  const put: AcpOperation<OrderWebhookRequest> = {
    name: 'putOrderWebhook',
    title: "Register the key's order webhook",
    description: `Not part of the release, which defines the agent's receiver of order events but no way to register it: from now on, each checkout session of this key that completes sends ${EVENTS}, the release's WebhookEvent with the whole simulated order, POSTed to url and signed as openapi.agentic_checkout_webhook.yaml says (Merchant-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, Request-Id the event's id, Timestamp). ${targets} Registering again replaces the URL (and the secret when one is sent). ${retries} ${KEY}`,
    method: 'PUT',
    path: PATH,
    successStatus: 200,
    body: { schema: OrderWebhookRequest, required: true },
    result: OrderWebhookSchema,
    scope: CHECKOUT_SCOPE,
    errors: { 400: 'invalid_url: the URL is not one events can be sent to (param $.url).' },
    run: async ({ body }, { principal }) => {
      const refused = orderEvents.refusedTarget(body.url);
      if (refused !== undefined) throw new AcpProblem(400, 'invalid_url', `The order webhook URL is refused: ${refused}. Nothing was registered.`, '$.url');
      return orderEvents.register(principal, body.url, body.secret);
    },
  };

  const get: AcpOperation<undefined> = {
    name: 'getOrderWebhook',
    title: "Read the key's order webhook",
    description: `The key's order webhook, without its secret. ${NOT_FOUND} ${KEY}`,
    method: 'GET',
    path: PATH,
    successStatus: 200,
    result: OrderWebhookSchema,
    scope: CHECKOUT_SCOPE,
    errors: { 404: NOT_FOUND },
    run: async (_input, { principal }) => (await orderEvents.webhook(principal)) ?? notFound(),
  };

  const remove: AcpOperation<undefined> = {
    name: 'deleteOrderWebhook',
    title: "Delete the key's order webhook",
    description: `No more events are sent for the key's orders, and those not yet delivered are dropped; the answer is the webhook as it was. ${NOT_FOUND} ${KEY}`,
    method: 'DELETE',
    path: PATH,
    successStatus: 200,
    result: OrderWebhookSchema,
    scope: CHECKOUT_SCOPE,
    errors: { 404: NOT_FOUND },
    run: async (_input, { principal }) => {
      const webhook = (await orderEvents.webhook(principal)) ?? notFound();
      if (!(await orderEvents.unregister(principal))) notFound();
      return webhook;
    },
  };

  return [put, get, remove];
}

function notFound(): never {
  throw new AcpProblem(404, 'not_found', 'This key has no order webhook: register one with PUT.');
}
