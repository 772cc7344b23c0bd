import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { Type, type Static, type TObject, type TProperties } from 'typebox';
import type { SandboxConfig } from '../config.js';
import { admitKeyWithScope } from '../sandbox/admission.js';
import type { SandboxPrincipal } from '../sandbox/auth.js';
import type { SandboxCartService } from '../sandbox/cart-service.js';
import { missingKey, sandboxErrors, sandboxIdempotencyWording } from '../sandbox/errors.js';
import { KEY_LIFETIME_HOURS } from '../sandbox/keys.js';
import {
  ADD_ITEM,
  CHECKOUT,
  CREATE_CART,
  CREATE_KEY,
  GET_CART,
  idempotencyMismatchMessage,
  LIST_SHIPPING,
  REMOVE_ITEM,
  SELECT_SHIPPING,
  SET_ADDRESS,
  SET_QUANTITY,
  toolIdempotencyPath,
  type Effect,
  type IdempotencyTerms,
  type SandboxOperation,
} from '../sandbox/operations.js';
import { KEY_SCENARIOS, SCENARIOS, type Scenario } from '../sandbox/scenarios.js';
import {
  idempotencyKey,
  SandboxAddress,
  SandboxCartAnswer,
  SandboxCartRequest,
  SandboxItemQuantityRequest,
  SandboxItemRequest,
  SandboxKeyRequest,
  SandboxKeyResponse,
  SandboxShippingOptionRequest,
  SandboxShippingOptions,
} from '../sandbox/schemas.js';
import type { Scope } from '../sandbox/scopes.js';
import type { SandboxServices } from '../sandbox/services.js';
import { TOKEN_PREFIX, TOKEN_SHAPE } from '../sandbox/tokens.js';
import type { ToolSchemaCompiler } from './json-schema.js';
import { defineTool, RenderedToolError, type ToolContext, type ToolDefinition } from './tool.js';

/** How an agent hands its key to a cart tool, and what passing it as an argument costs. */
export const KEY_TRADE_OFF = `A key passed as sandbox_key becomes part of the conversation (the agent's transcript and context, and whatever logs the client keeps); send the Authorization header instead where the client can. The header wins when both are present. Sandbox keys expire after ${KEY_LIFETIME_HOURS} hours and reach only simulated carts.`;

/** What every cart tool needs, said once in the server instructions rather than in each tool. */
export const KEY_NOTE = `Every cart tool needs a sandbox key with the scope its description names: in the HTTP Authorization header of the MCP request ("Bearer ${TOKEN_PREFIX}...") or, for a client that cannot set headers, as the sandbox_key argument. Without it the tool error is sandbox_unauthorized or sandbox_insufficient_scope, naming the scope. Carts are visible only to the key that created them (another key gets sandbox_not_found).`;

const NO_KEY_SENT =
  'This tool needs a sandbox key: pass sandbox_key (the access_token from create_sandbox_key) or send Authorization: Bearer <access_token> on the MCP request.';

/** The idempotency rules in the tools' terms: an argument, the other arguments. */
export const MCP_IDEMPOTENCY: IdempotencyTerms = { key: 'idempotency_key', input: 'arguments', otherInput: 'different arguments' };

const IDEMPOTENCY_WORDING = sandboxIdempotencyWording(idempotencyMismatchMessage(MCP_IDEMPOTENCY));

const ANNOTATIONS: Record<Effect, ToolAnnotations> = {
  read: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  create: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  add: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  set: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  remove: { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false },
};

/** A tool's description: the operation's own, then where the flow goes next. */
function toolDescription(op: SandboxOperation, config: SandboxConfig): string {
  const scope = op.scope === undefined ? '' : ` Scope: ${op.scope}.`;
  return `${op.describe(config)}${op.next ? ` Next: ${op.next}.` : ''}${scope}`;
}

/** What a cart tool runs with: the admitted key, and the cart operations as the call's scenario shapes them. */
interface CartCall {
  principal: SandboxPrincipal;
  carts: SandboxCartService;
}

/**
 * The sandbox cart tools of `/mcp/sandbox`, one per sandbox operation. Each authenticates
 * the request's bearer key (or its sandbox_key argument) and calls the same services as
 * the REST routes, with the same gate, rate limit per key and idempotency store; failures
 * carry the REST `SandboxError` bodies. Arguments are the REST request schemas under the
 * tools' names. What each tool says and needs comes from its operation; what every cart
 * tool shares is said once, in the server instructions.
 */
export function sandboxTools(sandbox: SandboxServices, schemas: ToolSchemaCompiler): ToolDefinition[] {
  const { config } = sandbox;
  const cartOutput = schemas.output(SandboxCartAnswer);
  const cartId = Type.String({ minLength: 1, maxLength: 64, description: 'The cart id from create_cart (`sandbox_cart_...`).' });
  const idempotencyKeyArg = Type.Optional(idempotencyKey('Optional: makes a retry safe (see the instructions).'));
  const sandboxKey = Type.Optional(
    Type.String({
      pattern: TOKEN_SHAPE.source,
      description:
        "The access_token of create_sandbox_key, for clients that cannot send the Authorization header (the header wins; a key here ends up in the agent's transcript).",
    }),
  );
  const scenarioArg = (names: readonly Scenario[]) =>
    Type.Optional(Type.Enum([...names], { description: 'Rehearses a failure on purpose (each is described in the instructions); omitted, the call runs as usual.' }));
  const { variant_id: variantId, quantity } = SandboxItemRequest.properties;

  /** The header wins; a blank header counts as none, so sandbox_key can stand in for it. */
  const admit = (context: ToolContext, scope: Scope, key: string | undefined): Promise<SandboxPrincipal> => {
    const header = context.request.headers.authorization;
    const authorization = header?.trim() ? header : key === undefined ? undefined : `Bearer ${key}`;
    if (authorization === undefined) throw missingKey(scope, NO_KEY_SENT);
    return admitKeyWithScope(sandbox, context.request, context.reply, scope, authorization);
  };

  /**
   * A cart tool: the operation's arguments plus sandbox_key, scenario and (where the
   * operation takes one) idempotency_key; it runs once the key is admitted with the
   * operation's scope. With an idempotency_key it runs through the idempotency store,
   * scoped to the operation and its `targets` (the cart, and the line), like the REST
   * route; business errors are recorded too, so a retry gets the same answer.
   */
  const cartTool = <P extends TProperties>(
    op: SandboxOperation,
    spec: {
      args: P;
      output?: ReturnType<ToolSchemaCompiler['output']>;
      /** The arguments naming what it acts on (as a REST route's parameters do): they scope an idempotency key, the others are compared. */
      targets: readonly (keyof P & string)[];
      run(args: Static<TObject<P>>, call: CartCall): Promise<object>;
    },
  ) =>
    defineTool(sandboxErrors, {
      name: op.name,
      title: op.title,
      description: toolDescription(op, config),
      input: schemas.input(
        Type.Object(
          { ...spec.args, ...(op.idempotency && { idempotency_key: idempotencyKeyArg }), sandbox_key: sandboxKey, scenario: scenarioArg(SCENARIOS) },
          { additionalProperties: false },
        ),
      ),
      output: spec.output ?? cartOutput,
      annotations: ANNOTATIONS[op.effect],
      run: (args, context) => {
        const { sandbox_key, scenario, idempotency_key, ...own } = args as Static<TObject<P>> & {
          sandbox_key?: string;
          scenario?: Scenario;
          idempotency_key?: string;
        };
        const ownArgs = own as Static<TObject<P>>;
        return sandbox.whenAvailable(async () => {
          const call = { principal: await admit(context, op.scope!, sandbox_key), carts: sandbox.carts.withScenario(scenario) };
          const work = () => spec.run(ownArgs, call);
          if (idempotency_key === undefined) return work();
          const values = own as Record<string, string>;
          const outcome = await sandbox.runIdempotently({
            scope: {
              keyId: call.principal.keyId,
              idempotencyKey: idempotency_key,
              method: 'MCP',
              path: toolIdempotencyPath(op, spec.targets.map((name) => values[name]!)),
            },
            input: Object.fromEntries(Object.entries(own).filter(([name]) => !spec.targets.includes(name))),
            wording: IDEMPOTENCY_WORDING,
            successStatus: 200,
            run: work,
          });
          return outcome.statusCode >= 400 ? new RenderedToolError(outcome.body) : outcome.body;
        });
      },
    });

  const onCart = ['cart_id'] as const;

  return [
    defineTool(sandboxErrors, {
      name: CREATE_KEY.name,
      title: CREATE_KEY.title,
      description: `${toolDescription(CREATE_KEY, config)} Send the token as "Authorization: Bearer <access_token>" on requests to this server (reconnect with that header) or, if this client cannot set headers, as the sandbox_key argument of the cart tools (a key in an argument ends up in the agent's transcript: see the instructions).`,
      input: schemas.input(Type.Object({ ...SandboxKeyRequest.properties, scenario: scenarioArg(KEY_SCENARIOS) }, { additionalProperties: false })),
      output: schemas.output(SandboxKeyResponse),
      annotations: ANNOTATIONS[CREATE_KEY.effect],
      run: (args, { request, reply }) =>
        sandbox.whenAvailable(async () => {
          await sandbox.rateLimits.keys(request, reply);
          return sandbox.issueKey(args.scopes, args.scenario);
        }),
    }),

    cartTool(CREATE_CART, {
      args: SandboxCartRequest.properties,
      targets: [],
      run: (input, { principal, carts }) => carts.createCart(principal, input),
    }),

    cartTool(GET_CART, {
      args: { cart_id: cartId },
      targets: onCart,
      run: ({ cart_id }, { principal, carts }) => carts.getCart(principal, cart_id),
    }),

    cartTool(ADD_ITEM, {
      args: { cart_id: cartId, variant_id: variantId, quantity },
      targets: onCart,
      run: ({ cart_id, ...item }, { principal, carts }) => carts.addItem(principal, cart_id, item),
    }),

    cartTool(SET_QUANTITY, {
      args: { cart_id: cartId, variant_id: variantId, ...SandboxItemQuantityRequest.properties },
      targets: ['cart_id', 'variant_id'],
      run: ({ cart_id, variant_id, quantity }, { principal, carts }) => carts.setItemQuantity(principal, cart_id, variant_id, quantity),
    }),

    cartTool(REMOVE_ITEM, {
      args: { cart_id: cartId, variant_id: variantId },
      targets: onCart,
      run: ({ cart_id, variant_id }, { principal, carts }) => carts.removeItem(principal, cart_id, variant_id),
    }),

    cartTool(SET_ADDRESS, {
      args: { cart_id: cartId, address: schemas.standalone(SandboxAddress) },
      targets: onCart,
      run: ({ cart_id, address }, { principal, carts }) => carts.setShippingAddress(principal, cart_id, address),
    }),

    cartTool(LIST_SHIPPING, {
      args: { cart_id: cartId },
      output: schemas.output(SandboxShippingOptions),
      targets: onCart,
      run: ({ cart_id }, { principal, carts }) => carts.listShippingOptions(principal, cart_id),
    }),

    cartTool(SELECT_SHIPPING, {
      args: { cart_id: cartId, ...SandboxShippingOptionRequest.properties },
      targets: onCart,
      run: ({ cart_id, shipping_option_id }, { principal, carts }) => carts.selectShippingOption(principal, cart_id, shipping_option_id),
    }),

    cartTool(CHECKOUT, {
      args: { cart_id: cartId },
      targets: onCart,
      run: ({ cart_id }, { principal, carts }) => carts.checkout(principal, cart_id),
    }),
  ];
}
