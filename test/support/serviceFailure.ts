/** The ServiceError a call fails with; the test fails if it succeeds or throws anything else. */
import assert from 'node:assert/strict';
import { ServiceError } from '../../src/core/service/errors';

export async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ServiceError, `expected a ServiceError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}
