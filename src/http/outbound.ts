import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { addressMatcher } from '../lib/address-list.js';
import { Agent, request } from 'undici';

/**
 * HTTP requests to addresses a client names (webhook URLs, UCP platform profiles): the
 * one way the service calls out. Unless told otherwise it refuses targets in private,
 * loopback, link-local and other non-public ranges, checked on every address the name
 * resolves to at connection time (so a name cannot resolve to a public address when
 * checked and a private one when used); it follows no redirect (a 3xx is answered as it
 * is), gives every attempt a time limit, and reads at most a bounded number of bytes of
 * the answer.
 */
export interface OutboundOptions {
  /** The addresses it may connect to. */
  targets: TargetRange;
  /** The whole attempt, from connecting to the last byte read. */
  timeoutMs: number;
  /** The most bytes of a response body read; a longer body fails the attempt. */
  maxResponseBytes: number;
}

/**
 * `public`: the public internet only; `loopback`: loopback addresses only (a local
 * development relaxation, docs/ucp.md); `any`: every address (closed networks, tests).
 */
export type TargetRange = 'public' | 'loopback' | 'any';

export interface OutboundAnswer {
  status: number;
}

/** An answer read whole: its status, headers and body. */
export interface OutboundResponse extends OutboundAnswer {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * Why an outbound request got no answer: `refused` the target is outside the allowed
 * range, `unresolved` its name does not resolve, `timeout` no complete answer in time,
 * `too_large` the body passed the limit, `failed` anything else (refused connection,
 * reset, TLS).
 */
export type OutboundFailure = 'refused' | 'unresolved' | 'timeout' | 'too_large' | 'failed';

/** Why an outbound request was not answered; the message is safe to show to the operator who configured the target. */
export class OutboundError extends Error {
  constructor(
    message: string,
    readonly reason: OutboundFailure = 'failed',
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

/** Ranges that are not the public internet (IANA special-purpose registries). */
const inNonPublicRange = addressMatcher([
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/128',
  '::1/128',
  '64:ff9b:1::/48',
  '100::/64',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
]);

/**
 * Whether an IP address is outside the public internet; anything that is not an IP
 * address counts as outside. An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`,
 * `::ffff:7f00:1`) is matched against the IPv4 ranges (addressMatcher).
 */
export function isNonPublicAddress(address: string): boolean {
  return isIP(address) === 0 || inNonPublicRange(address);
}

/** A URL's host as an IP address, or undefined when it is a name (`[::1]` is `::1`). */
export function literalAddress(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) === 0 ? undefined : host;
}

export const NON_PUBLIC_REFUSAL = 'the target is a private, loopback or link-local address';
export const NOT_LOOPBACK_REFUSAL = 'the target is not a loopback address';

const isLoopbackAddress = addressMatcher(['loopback']);

/** Why `address` is outside `targets`, or undefined when it may be reached. */
function addressRefusal(address: string, targets: TargetRange): string | undefined {
  if (targets === 'public') return isNonPublicAddress(address) ? NON_PUBLIC_REFUSAL : undefined;
  if (targets === 'loopback') return isLoopbackAddress(address) ? undefined : NOT_LOOPBACK_REFUSAL;
  return undefined;
}

/** Why the literal address of `url` is outside `targets`, or undefined (a name is checked when resolved). */
export function literalAddressRefusal(url: URL, targets: TargetRange): string | undefined {
  const literal = literalAddress(url);
  return literal === undefined ? undefined : addressRefusal(literal, targets);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * `net.connect`'s lookup: resolves every address of the name and refuses the name when
 * any of them is outside `targets`, then hands over the checked addresses, so the
 * socket connects to an address that was checked and never resolves the name again.
 */
function checkedLookup(targets: TargetRange): Lookup {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refusal = addresses.length === 0 ? NON_PUBLIC_REFUSAL : addresses.map((entry) => addressRefusal(entry.address, targets)).find(Boolean);
      if (refusal) return callback(Object.assign(new OutboundError(`${hostname}: ${refusal}`, 'refused'), { code: 'EREFUSEDTARGET' }), []);
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** Name resolution failures: the name does not resolve (now). */
const UNRESOLVED_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA']);

/** Sends requests under `options`; close it when done. */
export class OutboundClient {
  readonly #agent: Agent;

  constructor(readonly options: OutboundOptions) {
    this.#agent = new Agent({
      connect: { timeout: options.timeoutMs, ...(options.targets !== 'any' && { lookup: checkedLookup(options.targets) as never }) },
      // Targets are called now and then, not in a stream: no idle connections kept.
      pipelining: 0,
    });
  }

  /**
   * Sends `body` with `method`; resolves with the status (3xx included: no redirect is
   * followed), or rejects with an OutboundError. `cancel` aborts it (a shutdown). The
   * answer's body is read (up to the limit) and dropped.
   */
  async send(method: 'POST' | 'PATCH', target: string, headers: Record<string, string>, body: string, cancel?: AbortSignal): Promise<OutboundAnswer> {
    const { status } = await this.#exchange(target, { method, headers, body }, false, cancel);
    return { status };
  }

  /** GETs `target`; resolves with the whole answer (3xx included: no redirect is followed), or rejects with an OutboundError. */
  get(target: string, headers: Record<string, string>, cancel?: AbortSignal): Promise<OutboundResponse> {
    return this.#exchange(target, { method: 'GET', headers }, true, cancel);
  }

  async #exchange(
    target: string,
    options: { method: 'GET' | 'POST' | 'PATCH'; headers: Record<string, string>; body?: string },
    keepBody: boolean,
    cancel: AbortSignal | undefined,
  ): Promise<OutboundResponse> {
    const url = new URL(target);
    const refusal = literalAddressRefusal(url, this.options.targets);
    if (refusal) throw new OutboundError(refusal, 'refused');
    // One signal of its own per exchange: AbortSignal.any([timeout, cancel]) would leave a
    // weak reference in the long-lived `cancel` signal's set of dependants for every
    // exchange (Node 20 never empties it), a leak of one entry per delivery attempt.
    const aborter = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      aborter.abort();
    }, this.options.timeoutMs).unref();
    const onCancel = () => aborter.abort();
    if (cancel?.aborted) aborter.abort();
    else cancel?.addEventListener('abort', onCancel, { once: true });
    try {
      const answer = await request(url, { ...options, dispatcher: this.#agent, signal: aborter.signal });
      const chunks: Buffer[] = [];
      let read = 0;
      for await (const chunk of answer.body) {
        read += (chunk as Buffer).length;
        if (read > this.options.maxResponseBytes) {
          answer.body.destroy();
          throw new OutboundError(`the response body is larger than ${this.options.maxResponseBytes} bytes`, 'too_large');
        }
        if (keepBody) chunks.push(chunk as Buffer);
      }
      return { status: answer.statusCode, headers: answer.headers, body: Buffer.concat(chunks) };
    } catch (error) {
      throw outboundError(error, timedOut, this.options.timeoutMs);
    } finally {
      clearTimeout(timer);
      cancel?.removeEventListener('abort', onCancel);
    }
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

/** A failure as the operator may see it: what happened, never a stack or an internal address. */
function outboundError(error: unknown, timedOut: boolean, timeoutMs: number): OutboundError {
  if (error instanceof OutboundError) return error;
  if (timedOut) return new OutboundError(`no complete answer within ${timeoutMs} ms`, 'timeout');
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof OutboundError) return cause;
  const code = (error as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code;
  if (code !== undefined && UNRESOLVED_CODES.has(code)) return new OutboundError(`the name does not resolve (${code})`, 'unresolved');
  return new OutboundError(code ? `the request failed (${code})` : 'the request failed');
}
