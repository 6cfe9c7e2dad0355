/**
 * Entry point of the reload suite: tests that reload the window (workbench.action.reloadWindow) and check what
 * survives. A reload runs this module again in a new extension host, so the suite runs twice; a test keeps what
 * its first run did in TOKEN_LENS_RUN_DIR (the headless runner's folder of this run) and checks it on the second.
 * Apart from the default suite, which would otherwise run twice too:
 *   node out/test/runner/headless.js --suite out/test/reload
 */
import { runMocha } from '../suite/index';

export function run(): Promise<void> {
  return runMocha(__dirname, '.test.js');
}
