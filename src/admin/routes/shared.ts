import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminConfig, WebhookConfig } from '../../config.js';
import type { WebhookService } from '../../delivery/webhook-service.js';
import type { VersionCondition } from '../../catalog/store/write/write-errors.js';
import type { AdminService } from '../admin-service.js';
import type { ImportJobs } from '../import-jobs.js';
import { AdminProblem } from '../errors.js';

/** What every route group gets from the plugin. */
export interface AdminRouteKit {
  config: AdminConfig;
  service: AdminService;
  imports: ImportJobs;
  webhooks: WebhookService;
  webhookConfig: WebhookConfig;
}

/** Every route but the document's needs the admin token. */
export const security = [{ adminBearer: [] }];

/** The name of the token the request authenticated with (set by the v1 context's onRequest hook). */
export function actorOf(request: FastifyRequest): string {
  return request.adminActor!;
}

const STRONG_ETAG = /^"(\d{1,15})"$/;

/**
 * `If-Match` as a version condition: `*`, or a list of strong ETags (`"3", "4"`). A weak
 * tag never matches (RFC 9110 compares If-Match strongly), so it is refused as a mistake.
 */
export function ifMatch(header: string | undefined): VersionCondition | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return 'any';
  const versions = header.split(',').map((tag) => STRONG_ETAG.exec(tag.trim())?.[1]);
  if (versions.some((version) => version === undefined)) {
    throw new AdminProblem('INVALID_REQUEST', 'Invalid request: If-Match must be * or strong ETags such as "3".', 'Send back the ETag header of the resource unchanged.');
  }
  return versions.map(Number);
}

/** Answers with the resource's ETag, the strong tag of its version. */
export function withEtag(reply: FastifyReply, version: number): FastifyReply {
  return reply.header('etag', `"${version}"`);
}
