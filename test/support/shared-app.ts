import { after, before } from 'node:test';
import type { AppOptions } from '../../src/app.js';
import { ContractClient } from './contract.js';
import { startTestApp, type TestApp, type TestConfigOverrides } from './test-app.js';

export interface SharedApp {
  readonly testApp: TestApp;
  readonly client: ContractClient;
}

/**
 * One test app for the enclosing `describe`: started before its first test, closed
 * after its last. Read `testApp` and `client` inside tests (they exist from `before` on).
 */
export function useSharedApp(overrides: TestConfigOverrides = {}, options: Partial<AppOptions> = {}): SharedApp {
  let testApp: TestApp | undefined;
  let client: ContractClient | undefined;
  before(async () => {
    testApp = await startTestApp(overrides, options);
    client = new ContractClient(testApp.app);
  });
  after(() => testApp?.close());
  return {
    get testApp() {
      if (!testApp) throw new Error('The shared test app is used outside a test');
      return testApp;
    },
    get client() {
      if (!client) throw new Error('The shared test app is used outside a test');
      return client;
    },
  };
}
