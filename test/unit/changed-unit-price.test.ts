import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changedUnitPrice } from '../../src/sandbox/scenarios.js';

test('price_changed: 10% up, rounded half up to the minor unit, and always at least one minor unit up', () => {
  assert.deepEqual(
    [0, 1, 4, 5, 10, 15, 1650, 1295, 99_999].map(changedUnitPrice),
    [1, 2, 5, 6, 11, 17, 1815, 1425, 109_999],
  );
});
