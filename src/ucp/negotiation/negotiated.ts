import type { NegotiatedCapability } from './intersection.js';

/** What a request negotiated: every UCP answer is shaped by it (src/ucp/envelope.ts). */
export interface Negotiated {
  /** The protocol version the request is served at. */
  version: string;
  /** The capabilities active for the request (overview.md, Intersection Algorithm). */
  capabilities: ReadonlyMap<string, NegotiatedCapability>;
  platformProfileUrl: string;
  /** Where the platform takes order events: its order capability's `config.webhook_url`, when the order capability is negotiated and names one. */
  orderWebhookUrl?: string;
}
