import { createHmac, timingSafeEqual } from 'node:crypto';
import { startReceiver, type ReceivedRequest, type WebhookReceiver } from './webhook-receiver.js';

/**
 * An agent's receiver of ACP order events, written from the release's
 * openapi.agentic_checkout_webhook.yaml alone (postOrderEvents), as an agent developer
 * would write one; it knows nothing of how this service signs. Per the document: the
 * `Merchant-Signature` header is `t=<unix_seconds>,v1=<64 hex>`, the hex HMAC-SHA256 of
 * `<t>.<raw body>` with the shared secret; a missing or malformed header, a timestamp
 * outside the window (300 s, the recommended tolerance) or a signature that does not
 * verify is answered 401 with the document's Error (`invalid_signature`); an accepted
 * event is answered 200 `{ received: true, request_id }`.
 */

/** The recommended timestamp tolerance of the document. */
export const TOLERANCE_SECONDS = 300;

export interface ReceivedOrderEvent {
  request: ReceivedRequest;
  /** The parsed body: the release's WebhookEvent. */
  event: { type: string; data: Record<string, any> };
}

export interface AcpOrderReceiver {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request, accepted or not, in arrival order. */
  requests: ReceivedRequest[];
  /** The events accepted: their signature verified. */
  events: ReceivedOrderEvent[];
  /** The shared secret, once the merchant told it (PUT /acp/sandbox/order_webhook answers it). */
  secret: string | undefined;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** Answers 500 to the first request of each Request-Id this many times before verifying it: the receiver's own outage. */
  failFirst?: number;
  /** The receiver's clock. */
  now?: () => Date;
}

const json = { 'content-type': 'application/json' };
const refusal = (status: number, code: string, message: string) => ({ status, headers: json, body: JSON.stringify({ type: 'invalid_request', code, message }) });

/** Why the header does not verify `body` with `secret` at `nowSeconds`, or undefined when it does. */
export function signatureFailure(header: string | undefined, body: string, secret: string, nowSeconds: number): string | undefined {
  if (header === undefined) return 'Missing Merchant-Signature header.';
  const fields = new Map(header.split(',').map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)] as const));
  const [t, v1] = [fields.get('t'), fields.get('v1')];
  if (fields.size !== 2 || t === undefined || !/^\d+$/.test(t) || v1 === undefined || !/^[0-9a-fA-F]{64}$/.test(v1)) return 'Merchant-Signature must be t=<timestamp>,v1=<64_hex>.';
  if (Math.abs(nowSeconds - Number(t)) > TOLERANCE_SECONDS) return 'Timestamp outside allowed window.';
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  if (!timingSafeEqual(expected, Buffer.from(v1, 'hex'))) return 'Webhook signature verification failed.';
  return undefined;
}

export async function startAcpOrderReceiver({ failFirst = 0, now = () => new Date() }: ReceiverOptions = {}): Promise<AcpOrderReceiver> {
  const events: ReceivedOrderEvent[] = [];
  const failed = new Map<string, number>();
  const state: { secret: string | undefined } = { secret: undefined };
  const receiver: WebhookReceiver = await startReceiver((request) => {
    const requestId = request.headers['request-id'] as string | undefined;
    const failures = failed.get(requestId ?? '') ?? 0;
    if (failures < failFirst) {
      failed.set(requestId ?? '', failures + 1);
      return { status: 500, headers: json, body: JSON.stringify({ type: 'processing_error', code: 'outage', message: 'The receiver is down.' }) };
    }
    if (state.secret === undefined) return refusal(401, 'invalid_signature', 'No secret is shared with this merchant yet.');
    const failure = signatureFailure(request.headers['merchant-signature'] as string | undefined, request.body, state.secret, Math.floor(now().getTime() / 1000));
    if (failure !== undefined) return refusal(401, 'invalid_signature', failure);
    if (request.headers['content-type'] !== 'application/json') return refusal(400, 'invalid_request', 'Content-Type must be application/json.');
    let event: ReceivedOrderEvent['event'];
    try {
      event = JSON.parse(request.body) as ReceivedOrderEvent['event'];
    } catch {
      return refusal(400, 'invalid_request', 'The body is not JSON.');
    }
    events.push({ request, event });
    return { status: 200, headers: json, body: JSON.stringify({ received: true, ...(requestId !== undefined && { request_id: requestId }) }) };
  });
  return {
    url: receiver.url,
    requests: receiver.requests,
    events,
    get secret() {
      return state.secret;
    },
    set secret(secret) {
      state.secret = secret;
    },
    close: () => receiver.close(),
  };
}
