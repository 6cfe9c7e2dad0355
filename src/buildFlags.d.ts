/**
 * Set by the build (esbuild.mjs `define`): true in development and test builds, false in the release bundles,
 * where every branch behind it (the hidden test commands, the pages' report code) is compiled out.
 */
declare const TEST_HOOKS: boolean;
