/**
 * Extension-host entry of the inspector's webview benchmark: `npm run bench` runs it in the headless
 * editor (node out/test/runner/headless.js --suite out/test/bench/webview/index.js).
 */
import { runMocha } from '../../suite/index';

export function run(): Promise<void> {
  return runMocha(__dirname, '.bench.js');
}
