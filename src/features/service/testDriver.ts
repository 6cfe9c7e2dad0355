/**
 * The service's test driver (test builds only: registered behind TEST_HOOKS, so release bundles drop this module):
 * tests stand in for an earlier version, which kept one key under the old name.
 */
import * as vscode from 'vscode';
import { LEGACY_API_KEY_SECRET } from '../../core/service/origin';

export const SERVICE_TEST_COMMAND = 'tokenLens.service.test';

export function serviceTestDriver(secrets: vscode.SecretStorage): vscode.Disposable {
  return vscode.commands.registerCommand(SERVICE_TEST_COMMAND, (action: unknown, value: unknown) =>
    action === 'storeLegacyKey' && typeof value === 'string' ? secrets.store(LEGACY_API_KEY_SECRET, value) : undefined,
  );
}
