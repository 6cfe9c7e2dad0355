/**
 * Entry point of the installed-build smoke suite: `node out/test/runner/headless.js --vsix token-lens.vsix
 * --suite out/test/suite/installed` (npm run test:installed). Runs the `*.installed.js` files next to it;
 * the development suite (`*.test.js`) does not pick them up.
 */
import { runMocha } from '../index';

export function run(): Promise<void> {
  return runMocha(__dirname, '.installed.js');
}
