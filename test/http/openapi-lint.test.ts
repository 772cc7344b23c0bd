import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { withAdmin } from '../support/admin.js';
import { tempDir } from '../support/catalog-builder.js';
import { useTestApp, type TestApp } from '../support/test-app.js';
import { testUcpOperations } from '../support/ucp-operations.js';

/**
 * The CLI bundles its linter and exports no Node API; the separately published
 * @redocly/openapi-core lags behind it, so the pinned CLI itself is run.
 */
const REDOCLY = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** Lints `document` with Redocly's `recommended` ruleset. */
async function lint(document: unknown): Promise<LintReport> {
  const dir = await tempDir();
  try {
    const file = await dir.writeJson('openapi.json', document);
    // Run in the temp directory, so that no redocly.yaml around the repository changes the rules.
    const child = spawn(process.execPath, [REDOCLY, 'lint', '--extends=recommended', '--format=json', file], {
      cwd: dir.path,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve));
    // Exit code 1 means problems were found, which the report lists; anything else is a failure to lint.
    assert.ok(code === 0 || code === 1, `redocly exited with ${code}: ${stderr}`);
    return JSON.parse(stdout) as LintReport;
  } finally {
    await dir.remove();
  }
}

async function assertLintsClean(testApp: TestApp, url: string): Promise<void> {
  const response = await testApp.app.inject({ method: 'GET', url });
  assert.equal(response.statusCode, 200, response.body);
  const report = await lint(response.json());
  const problems = report.problems.map(({ severity, ruleId, message, location }) => `${severity} ${ruleId} at ${location[0]?.pointer}: ${message}`);
  assert.deepEqual(problems, [], `${url}:\n${problems.join('\n')}`);
  assert.deepEqual({ errors: report.totals.errors, warnings: report.totals.warnings }, { errors: 0, warnings: 0 });
}

describe("Redocly's recommended ruleset finds no error and no warning", () => {
  // The documents differ with the configuration: the metrics token adds a security scheme,
  // admin tokens the admin document. UCP operations, of every kind the registry takes,
  // are documented by the binding (test/support/ucp-operations.ts).
  const plain = useTestApp({ ucpOperations: testUcpOperations });
  const configured = useTestApp(withAdmin({ config: { metricsToken: 'metrics-token-0123456789abcdef' } }));

  it('in /openapi.json, with UCP operations', () => assertLintsClean(plain, '/openapi.json'));

  it('in /openapi.json with METRICS_TOKEN set', () => assertLintsClean(configured, '/openapi.json'));

  it('in /admin/openapi.json', () => assertLintsClean(configured, '/admin/openapi.json'));
});
