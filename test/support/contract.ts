import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
  components: Record<string, unknown>;
}

export interface CheckedResponse extends LightMyRequestResponse {
  /** The parsed JSON body, already validated against the operation's response schema. */
  body: string;
  data: any;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
/**
 * The validators compiled for each contract document, by its text (without `servers`) and then by method,
 * path template and status: every test app of a process serves the same document (or
 * one of a few configured ones), so each response schema is compiled once per process,
 * not once per app, which cost more than most tests' own requests.
 */
const validatorsByDocument = new Map<string, Map<string, ValidateFunction>>();

/**
 * Injects a request and validates the JSON answer against the response schema that
 * the app's own `/openapi.json` declares for that path, method and status. Every
 * test goes through this, so the contract document is checked by every response.
 */
export class ContractClient {
  private document: OpenApiDocument | undefined;
  /** This document's entry of `validatorsByDocument`, once the document is read. */
  private validators: Map<string, ValidateFunction> | undefined;

  constructor(
    private readonly app: FastifyInstance,
    /** The document the answers are checked against: the public contract, or another surface's (the admin API's). */
    private readonly documentUrl = '/openapi.json',
  ) {}

  async openapi(): Promise<OpenApiDocument> {
    if (!this.document) {
      const response = await this.app.inject({ method: 'GET', url: this.documentUrl });
      this.document = JSON.parse(response.body) as OpenApiDocument;
      // Keyed without `servers`: it names the app's own address, a port of its own for every browser test's app.
      const key = JSON.stringify({ ...this.document, servers: undefined });
      let validators = validatorsByDocument.get(key);
      if (!validators) validatorsByDocument.set(key, (validators = new Map()));
      this.validators = validators;
    }
    return this.document;
  }

  async request(options: InjectOptions & { method: string; url: string }): Promise<CheckedResponse> {
    const response = (await this.app.inject(options)) as CheckedResponse;
    const contentType = String(response.headers['content-type'] ?? '');
    response.data = contentType.includes('application/json') ? JSON.parse(response.body) : undefined;
    const validate = await this.validatorFor(options.method, options.url, response.statusCode);
    if (!validate(response.data)) {
      throw new Error(
        `${options.method} ${options.url} -> ${response.statusCode}: body does not match ${this.documentUrl}: ${ajv.errorsText(validate.errors)}\n${response.body.slice(0, 2000)}`,
      );
    }
    return response;
  }

  get(url: string, headers: Record<string, string> = {}): Promise<CheckedResponse> {
    return this.request({ method: 'GET', url, headers });
  }

  private async validatorFor(method: string, url: string, status: number): Promise<ValidateFunction> {
    const document = await this.openapi();
    const path = new URL(url, 'http://x').pathname;
    const template = Object.keys(document.paths).find((candidate) => templateRegExp(candidate).test(path));
    if (!template) throw new Error(`${this.documentUrl} documents no path matching ${path}`);
    const operation = document.paths[template]![method.toLowerCase()];
    if (!operation) throw new Error(`${this.documentUrl} documents no ${method} ${template}`);
    const cacheKey = `${method} ${template} ${status}`;
    let validate = this.validators!.get(cacheKey);
    if (!validate) {
      const response = operation.responses[String(status)];
      if (!response) throw new Error(`${this.documentUrl} documents no ${status} for ${method} ${template}`);
      const schema = response.content?.['application/json']?.schema;
      if (!schema) throw new Error(`${this.documentUrl} documents no JSON body for ${status} of ${method} ${template}`);
      validate = ajv.compile({ ...schema, components: document.components });
      this.validators!.set(cacheKey, validate);
    }
    return validate;
  }
}

function templateRegExp(template: string): RegExp {
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${pattern}$`);
}
