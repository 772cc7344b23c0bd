import { SANDBOX_PAYMENT_TOKENS } from '../../sandbox/payment/simulated-payments.js';
import { UCP_PATHS } from '../endpoints.js';
import { schemaUrl, UCP_VERSION } from '../version.js';

/**
 * The sandbox's payment handler, defined by this service as payment-handler-guide.md
 * says a provider defines one: a name, a published JSON Schema (served at
 * UCP_PATHS.paymentHandlerSchema) and a human-readable specification (served at
 * UCP_PATHS.paymentHandlerSpec), both rendered from the token list of
 * src/sandbox/payment/simulated-payments.ts. The name is the project's, the same on
 * every deployment; each deployment serves the specification and schema itself, since
 * a self-hosted service has no common origin (docs/ucp.md, The simulated payment handler).
 */
export const SANDBOX_PAYMENT_HANDLER = 'dev.vetrina.sandbox_payment';

/** The handler's instance: the `handler_id` of every instrument paying through it. */
export const SANDBOX_PAYMENT_HANDLER_ID = 'sandbox_payment';

/** Handlers version on their own (payment-handler-guide.md); this one was defined for, and with, this release. */
export const SANDBOX_PAYMENT_HANDLER_VERSION = UCP_VERSION;

/** The instrument type (the release's card instrument) and the credential type it carries. */
export const SANDBOX_INSTRUMENT_TYPE = 'card';
export const SANDBOX_CREDENTIAL_TYPE = 'sandbox_token';

/** The business's settings of the handler, and its runtime configuration in checkout answers. */
export interface SandboxPaymentConfig {
  environment: 'sandbox';
  /** The currencies a checkout can be paid in: those the live catalog sells in and the sandbox ships in. */
  currencies: string[];
}

/** The handler as the business profile declares it (`ucp.payment_handlers`). */
export function paymentHandlerDeclaration(publicBaseUrl: string, config: SandboxPaymentConfig): object {
  return {
    id: SANDBOX_PAYMENT_HANDLER_ID,
    version: SANDBOX_PAYMENT_HANDLER_VERSION,
    spec: `${publicBaseUrl}${UCP_PATHS.paymentHandlerSpec}`,
    schema: `${publicBaseUrl}${UCP_PATHS.paymentHandlerSchema}`,
    available_instruments: [{ type: SANDBOX_INSTRUMENT_TYPE }],
    config,
  };
}

/** The handler as a checkout answer names it (`ucp.payment_handlers`, the response variant). */
export function paymentHandlerInResponse(config: SandboxPaymentConfig): object {
  return {
    id: SANDBOX_PAYMENT_HANDLER_ID,
    version: SANDBOX_PAYMENT_HANDLER_VERSION,
    available_instruments: [{ type: SANDBOX_INSTRUMENT_TYPE }],
    config,
  };
}

const REAL_CARD_RULE =
  'A credential holding anything that looks like a real card number (13 to 19 digits, spaces or dashes allowed, passing the Luhn check) is refused and never stored or echoed.';

/**
 * The handler's JSON Schema (payment-handler-guide.md, Defining the Schema): its config,
 * instrument and credential shapes and its three declaration variants, composed on the
 * release's base schemas by reference.
 */
export function paymentHandlerSchema(publicBaseUrl: string): object {
  const base = (variant: string) => ({ $ref: schemaUrl(`payment_handler.json#/$defs/${variant}`) });
  const withConfig = (variant: string, config: object) => ({ allOf: [base(variant), { properties: { config } }] });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${publicBaseUrl}${UCP_PATHS.paymentHandlerSchema}`,
    name: SANDBOX_PAYMENT_HANDLER,
    version: SANDBOX_PAYMENT_HANDLER_VERSION,
    title: 'Vetrina sandbox payment handler',
    description: `Simulated payments: the credential is a sandbox token that is approved or declined deterministically; nothing is ever charged. Specification: ${publicBaseUrl}${UCP_PATHS.paymentHandlerSpec}`,
    $defs: {
      config: {
        title: 'Sandbox payment configuration',
        description: 'The same in the business profile and in checkout answers.',
        type: 'object',
        required: ['environment', 'currencies'],
        properties: {
          environment: { const: 'sandbox', description: 'Always the sandbox: nothing is ever charged.' },
          currencies: {
            type: 'array',
            items: { type: 'string', pattern: '^[A-Z]{3}$' },
            description: 'ISO 4217 codes of the currencies a checkout can be paid in.',
          },
        },
      },
      sandbox_token_credential: {
        title: 'Sandbox token credential',
        description: REAL_CARD_RULE,
        allOf: [{ $ref: schemaUrl('shopping/types/token_credential.json') }],
        type: 'object',
        required: ['type', 'token'],
        properties: {
          type: { const: SANDBOX_CREDENTIAL_TYPE },
          token: {
            description: 'One of the sandbox tokens; any other token is refused.',
            anyOf: SANDBOX_PAYMENT_TOKENS.map(({ token, description }) => ({ const: token, description })),
          },
          expiry: {
            type: 'string',
            format: 'date-time',
            description: 'Sandbox tokens do not expire: an expiry may be sent and is ignored.',
          },
        },
      },
      sandbox_card_instrument: {
        title: 'Sandbox card instrument',
        description: 'The release card instrument, paid with a sandbox token; `display` is the platform\'s own and is not checked.',
        allOf: [{ $ref: schemaUrl('shopping/types/card_payment_instrument.json') }],
        type: 'object',
        required: ['handler_id', 'type', 'credential'],
        properties: {
          handler_id: { const: SANDBOX_PAYMENT_HANDLER_ID },
          type: { const: SANDBOX_INSTRUMENT_TYPE },
          credential: { $ref: '#/$defs/sandbox_token_credential' },
        },
      },
      [SANDBOX_PAYMENT_HANDLER]: {
        payment_instrument: { $ref: '#/$defs/sandbox_card_instrument' },
        platform_schema: withConfig('platform_schema', { type: 'object', description: 'Nothing to configure: platforms need no onboarding.' }),
        business_schema: withConfig('business_schema', { $ref: '#/$defs/config' }),
        response_schema: withConfig('response_schema', { $ref: '#/$defs/config' }),
      },
    },
  };
}

/**
 * The handler's specification, in the structure of payment-handler-template.md, as plain
 * text (Markdown): what a platform needs to pay a sandbox checkout.
 */
export function paymentHandlerSpecification(publicBaseUrl: string): string {
  const tokens = SANDBOX_PAYMENT_TOKENS.map(({ token, result, description }) => `| \`${token}\` | ${result.outcome === 'approved' ? 'approved' : `declined (${result.reason})`} | ${description} |`);
  const instrument = {
    id: 'instr_1',
    handler_id: SANDBOX_PAYMENT_HANDLER_ID,
    type: SANDBOX_INSTRUMENT_TYPE,
    credential: { type: SANDBOX_CREDENTIAL_TYPE, token: SANDBOX_PAYMENT_TOKENS[0]!.token },
  };
  return `# Vetrina sandbox payment handler

* **Handler name:** \`${SANDBOX_PAYMENT_HANDLER}\`
* **Version:** \`${SANDBOX_PAYMENT_HANDLER_VERSION}\`
* **Schema:** ${publicBaseUrl}${UCP_PATHS.paymentHandlerSchema}

## Introduction

Simulated payments for the Vetrina sandbox: the platform pays a checkout with a sandbox
token, which is approved or declined deterministically. Nothing is ever charged, no
credential is ever issued, and no real payment data may be sent.

## Participants

| Participant | Role | Prerequisites |
| :-- | :-- | :-- |
| Business (this service) | Declares the handler and processes sandbox tokens | No |
| Platform (the agent) | Chooses a sandbox token and submits it at checkout completion | No: no onboarding, identity or key |

## Business integration

The business profile (${publicBaseUrl}${UCP_PATHS.profile}) declares the handler under
\`ucp.payment_handlers["${SANDBOX_PAYMENT_HANDLER}"]\` with id \`${SANDBOX_PAYMENT_HANDLER_ID}\`
and one instrument type, \`${SANDBOX_INSTRUMENT_TYPE}\`. Its config, the same in the profile and
in checkout answers:

| Field | Type | Required | Description |
| :-- | :-- | :-- | :-- |
| \`environment\` | string | Yes | Always \`sandbox\`. |
| \`currencies\` | string[] | Yes | ISO 4217 codes of the currencies a checkout can be paid in. |

## Platform integration

1. Find \`${SANDBOX_PAYMENT_HANDLER}\` in the profile or in a checkout answer's \`ucp.payment_handlers\`.
2. Choose a token for the outcome to rehearse:

| Token | Outcome | Description |
| :-- | :-- | :-- |
${tokens.join('\n')}

3. Complete the checkout with the instrument (\`POST /checkout-sessions/{id}/complete\`, or \`complete_checkout\` over MCP):

\`\`\`json
${JSON.stringify({ payment: { instruments: [instrument] } }, null, 2)}
\`\`\`

## Processing

* An approved token completes the checkout and creates a simulated order.
* A declined token leaves the checkout open and answers it with an error message
  \`payment_failed\` (severity \`recoverable\`) saying why: retry with another token.
* A token not listed above is refused (\`unknown_instrument\`), as is a handler_id other
  than \`${SANDBOX_PAYMENT_HANDLER_ID}\`.
* ${REAL_CARD_RULE} The refusal is \`real_card_refused\`.

## Security considerations

Sandbox tokens are public, unbound and never expire: they carry no value. The sandbox
never accepts real payment data, so neither party comes into PCI scope through it.
`;
}
