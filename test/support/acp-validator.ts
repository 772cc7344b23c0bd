import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { mainCheckout } from './ucp-validator.js';

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const RELEASE = 'shared/spec/acp-2026-04-17';
/** The release's JSON Schemas, inside it. */
const SCHEMAS = 'spec/2026-04-17/json-schema';

/**
 * The ACP release (`../shared/spec/acp-2026-04-17`, beside the repository, as CI has it;
 * a git worktree looks beside its main checkout too). A fresh clone without `../shared`
 * runs the suite all the same: tests that need the release are skipped, saying why.
 */
export const ACP_RELEASE_DIR =
  [REPOSITORY, mainCheckout(REPOSITORY)]
    .filter((root): root is string => root !== undefined)
    .map((root) => path.resolve(root, '..', RELEASE))
    .find((dir) => existsSync(path.join(dir, SCHEMAS))) ?? path.resolve(REPOSITORY, '..', RELEASE);

/** The release's schemas by file name (`schema.feed.json`...), each validating any of its `$defs`. */
export interface AcpValidator {
  /** What is wrong with `data` as the definition `definition` of `schemaFile` (empty: valid). */
  errors(schemaFile: string, definition: string, data: unknown): string[];
}

/** The validator, or why the tests that need it are skipped (`it(name, { skip }, ...)`). */
export type AcpValidatorUse = { validator: AcpValidator; skip: false } | { validator: undefined; skip: string };

let loaded: AcpValidatorUse | undefined;

/**
 * Ajv 2020 with formats over every JSON Schema of the release, loaded once per process.
 * Each schema file is a bundle of `$defs` with an `$id` of its own, so a definition is
 * reached as `<$id>#/$defs/<name>`.
 */
export function acpValidator(): AcpValidatorUse {
  loaded ??= load();
  return loaded;
}

function load(): AcpValidatorUse {
  const dir = path.join(ACP_RELEASE_DIR, SCHEMAS);
  if (!existsSync(dir)) return { validator: undefined, skip: `needs ../${RELEASE} beside the repository (CI has it)` };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const ids = new Map<string, string>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    const schema = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { $id: string };
    ajv.addSchema(schema);
    ids.set(file, schema.$id);
  }
  return {
    skip: false,
    validator: {
      errors(schemaFile, definition, data) {
        const id = ids.get(schemaFile);
        if (id === undefined) throw new Error(`The release has no ${schemaFile}`);
        const validate = ajv.getSchema(`${id}#/$defs/${definition}`);
        if (!validate) throw new Error(`${schemaFile} defines no ${definition}`);
        return validate(data) ? [] : (validate.errors ?? []).map((error: ErrorObject) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
      },
    },
  };
}

/** Asserts that `data` is valid as the release's `definition` of `schemaFile`, showing what is wrong. */
export function assertAcpValid(validator: AcpValidator, schemaFile: string, definition: string, data: unknown, what: string): void {
  const errors = validator.errors(schemaFile, definition, data);
  if (errors.length > 0) throw new Error(`${what} is not a valid ACP ${definition} (${schemaFile}): ${errors.slice(0, 10).join('; ')}`);
}
