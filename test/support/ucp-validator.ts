import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Ajv2020 } from 'ajv/dist/2020.js';

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const BESIDE = 'shared/tools/ucp-validate';

/**
 * The UCP release's validator (`../shared/tools/ucp-validate`, beside the repository, as
 * CI has it): it checks profiles, REST answers and MCP results against the release's own
 * schemas. A git worktree looks beside its main checkout too. A fresh clone without
 * `../shared` runs the suite all the same: tests that need the validator are skipped,
 * saying why.
 */
export const VALIDATOR_DIR = [REPOSITORY, mainCheckout(REPOSITORY)]
  .filter((root): root is string => root !== undefined)
  .map((root) => path.resolve(root, '..', BESIDE))
  .find((dir) => existsSync(dir)) ?? path.resolve(REPOSITORY, '..', BESIDE);

/** The main checkout of a git worktree (whose `.git` is a file naming `<main>/.git/worktrees/<name>`), else undefined. */
export function mainCheckout(repository: string): string | undefined {
  const dotGit = path.join(repository, '.git');
  if (!existsSync(dotGit) || !statSync(dotGit).isFile()) return undefined;
  const gitDir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
  return gitDir === undefined ? undefined : path.resolve(gitDir, '..', '..', '..');
}

/** What validate.mjs answers (its README): valid, and what is wrong. */
export interface ValidationResult {
  valid: boolean;
  errors: string[];
  warnings: string[];
}

/** The validator's functions the tests use (validate.mjs, createValidator). */
export interface UcpValidator {
  validateProfile(profile: unknown, options?: { kind?: 'business' | 'platform' | 'any' }): ValidationResult;
  validateRest(operation: string, status: number, body: unknown, options?: { profile?: unknown; capabilities?: unknown; version?: string }): ValidationResult;
  validateMcpResult(tool: string, result: unknown, options?: { profile?: unknown; capabilities?: unknown; version?: string }): ValidationResult;
  validateMcpError(error: unknown): ValidationResult;
  /** What a platform sends: a request body of the operation, composed with the negotiated extensions. */
  validateRestRequest(operation: string, body: unknown, options?: { capabilities?: unknown }): ValidationResult;
  validateSchema(schema: object | string, data: unknown): ValidationResult;
  /** The release's MCP tools, by name. */
  mcpTools: string[];
  /** What a platform sends as a tool's arguments, checked against the release's OpenRPC. */
  validateMcpArguments(tool: string, args: unknown): { valid: boolean; errors: string[] };
  /** An operation of the release's REST OpenAPI: its headers as the release declares them. */
  findRestOp(operation: string): { operationId: string; headers: { name: string; required: boolean; schema: object }[] } | undefined;
  negotiate(business: unknown, platform: unknown): { capabilities: Record<string, { version: string; extends: string[] }>; dropped: string[] };
  /** Its Ajv instance, which holds the release's schemas (to add a schema that refers to them). */
  ajv: Pick<Ajv2020, 'addSchema' | 'getSchema'>;
}

/** The validator, or why the tests that need it are skipped (`it(name, { skip }, ...)`). */
export type ValidatorUse = { validator: UcpValidator; skip: false } | { validator: undefined; skip: string };

const MISSING = `needs ../${BESIDE} beside the repository (CI has it)`;
/** How long a process waits for another one installing the validator's dependencies. */
const INSTALL_WAIT_MS = 180_000;

let loading: Promise<ValidatorUse> | undefined;

/**
 * Loads the validator once per process. Its dependencies are installed with `npm ci` in
 * its folder when missing (CI installs them first, `.ci/run`); both test processes may
 * ask at once, so one installs under a lock directory while the other waits for it.
 */
export function ucpValidator(): Promise<ValidatorUse> {
  loading ??= load();
  return loading;
}

async function load(): Promise<ValidatorUse> {
  if (!existsSync(path.join(VALIDATOR_DIR, 'validate.mjs'))) return { validator: undefined, skip: MISSING };
  try {
    await installDependencies();
  } catch (error) {
    return { validator: undefined, skip: `the validator's dependencies could not be installed (run npm ci in ${VALIDATOR_DIR}): ${(error as Error).message}` };
  }
  const module = (await import(pathToFileURL(path.join(VALIDATOR_DIR, 'validate.mjs')).href)) as { createValidator(): UcpValidator };
  return { validator: module.createValidator(), skip: false };
}

async function installDependencies(): Promise<void> {
  const installed = () => existsSync(path.join(VALIDATOR_DIR, 'node_modules', 'ajv', 'package.json'));
  const lock = path.join(VALIDATOR_DIR, '.install-lock');
  const deadline = Date.now() + INSTALL_WAIT_MS;
  while (!installed()) {
    try {
      mkdirSync(lock);
    } catch {
      if (Date.now() > deadline) throw new Error(`another process holds ${lock}`);
      await sleep(250);
      continue;
    }
    try {
      if (!installed()) await promisify(execFile)('npm', ['ci', '--no-audit', '--no-fund'], { cwd: VALIDATOR_DIR });
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    if (!installed()) throw new Error('npm ci did not install ajv');
  }
}

/** Asserts a validation result, showing what the validator found. */
export function assertValid(result: ValidationResult, what: string): void {
  if (!result.valid) throw new Error(`${what} is not valid UCP: ${result.errors.join('; ')}`);
}
