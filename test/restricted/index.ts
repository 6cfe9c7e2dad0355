/**
 * Entry point of the Restricted Mode suite: the same mocha setup as the default suite, run on the files next
 * to this one. The headless runner opens the workspace untrusted for it:
 *   node out/test/runner/headless.js --suite out/test/restricted --untrusted
 */
import { runMocha } from '../suite/index';

export function run(): Promise<void> {
  return runMocha(__dirname, '.test.js');
}
