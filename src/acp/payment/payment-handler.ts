import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { RateLimitCheck } from '../../http/rate-limit.js';
import { SANDBOX_PAYMENT_TOKENS } from '../../sandbox/payment/simulated-payments.js';
import { acpErrorResponse } from '../errors.js';
import { ACP_PATHS } from '../endpoints.js';
import { ACP_TAG } from '../openapi.js';
import { ACP_VERSION } from '../version.js';

/** The handler id a completion's payment_data names. */
export const ACP_PAYMENT_HANDLER_ID = 'sandbox_card';
/** Its reverse-DNS name: the project's, the same on every deployment. */
const HANDLER_NAME = 'dev.vetrina.sandbox_card';

const DOCUMENTS = ACP_PATHS.paymentHandler;

/** The handler's configuration, as `config` holds it and its schema (served below) describes it. */
const HandlerConfig = Type.Object(
  {
    environment: Type.Literal('sandbox', { description: 'Nothing is ever charged.' }),
    delegate_payment_url: Type.String({ format: 'uri', description: 'Where a delegated sandbox token is issued.' }),
    sandbox_tokens: Type.Array(Type.String(), { description: 'Fixed tokens with a fixed outcome, usable without delegation.' }),
  },
  { title: `${HANDLER_NAME} config` },
);

/** The instrument a completion sends, as its schema (served below) describes it. */
const HandlerInstrument = Type.Object(
  {
    type: Type.Literal('card'),
    credential: Type.Object({
      type: Type.String({ description: 'Any credential type: the token decides.' }),
      token: Type.String({ description: 'A delegated sandbox token (vt_sandbox_...) or one of config.sandbox_tokens.' }),
    }),
  },
  { title: `${HANDLER_NAME} instrument` },
);

/** The handler as `capabilities.payment.handlers` declares it. */
export function acpPaymentHandler(publicBaseUrl: string): object {
  const base = `${publicBaseUrl}${DOCUMENTS}`;
  return {
    id: ACP_PAYMENT_HANDLER_ID,
    name: HANDLER_NAME,
    display_name: 'Sandbox card (simulated)',
    version: ACP_VERSION,
    spec: `${publicBaseUrl}/openapi.json`,
    requires_delegate_payment: true,
    requires_pci_compliance: false,
    psp: 'vetrina_sandbox',
    config_schema: `${base}/config.schema.json`,
    instrument_schemas: [`${base}/instrument.schema.json`],
    config: {
      environment: 'sandbox',
      delegate_payment_url: `${publicBaseUrl}${ACP_PATHS.delegatePayment}`,
      sandbox_tokens: SANDBOX_PAYMENT_TOKENS.map((entry) => entry.token),
    },
  };
}

/** Serves the handler's two JSON Schemas, which its declaration links to: keyless, counted against the catalog window like other documents. */
export function paymentHandlerRoutes(scope: FastifyInstance, rateLimit: RateLimitCheck): void {
  for (const [name, schema] of [
    ['config', HandlerConfig],
    ['instrument', HandlerInstrument],
  ] as const) {
    const document = JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema });
    scope.get(`${DOCUMENTS}/${name}.schema.json`, {
      onRequest: rateLimit,
      schema: {
        operationId: `acpPaymentHandler${name === 'config' ? 'Config' : 'Instrument'}Schema`,
        tags: [ACP_TAG],
        summary: `The sandbox payment handler's ${name} schema`,
        description: `The JSON Schema of the ${name} of ${HANDLER_NAME}, the simulated payment handler every ACP checkout session declares. Keyless; needs no API-Version.`,
        security: [],
        response: {
          200: { description: 'A JSON Schema (2020-12).', content: { 'application/schema+json': { schema: Type.Object({}, { additionalProperties: true }) } } },
          400: acpErrorResponse('invalid_request: a malformed request.'),
          429: acpErrorResponse('rate_limited: the catalog rate limit (Retry-After).'),
        },
      },
      handler: async (_request, reply) => reply.type('application/schema+json').send(document),
    });
  }
}
