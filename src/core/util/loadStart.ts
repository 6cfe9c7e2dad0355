/**
 * When the extension's bundle began to evaluate: extension.ts imports this module first, so it runs
 * before every other module (and the libraries they load), and activation time can include them.
 */
export const LOAD_STARTED = performance.now();
