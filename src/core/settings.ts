/**
 * The default of every tokenLens.* setting, in one place: platform/config.ts reads with these, and
 * test/unit/repo/manifest.test.ts checks that package.json declares the same defaults for the same keys.
 */
export const SETTING_DEFAULTS = {
  tokenizer: 'cl100k_base',
  specialTokens: 'text',
  'statusBar.enabled': true,
  'statusBar.compareEncodings': true,
  'chat.countConversations': true,
  'service.baseUrl': '',
  'service.timeoutSeconds': 120,
  'service.maxRetries': 3,
  'service.logBodies': false,
  'service.maxResponseMegabytes': 64,
  'service.builtin': false,
  'tightbinding.kpathDensity': 20,
  'relax.fmax': 0.05,
  'relax.steps': 200,
  'relax.optimizer': 'FIRE',
  'relax.relaxCell': false,
  'md.temperature': 300,
  'md.timestep': 1,
  'md.steps': 200,
  'md.interval': 1,
  'md.ensemble': 'nve',
  'xrd.wavelength': 1.54056,
  'contextWindow.size': 0,
  'contextWindow.reserve': 0,
  'contextWindow.warningPercent': 80,
  'models.tokenizerFiles': [] as readonly string[],
  'models.hubEndpoint': 'https://huggingface.co',
  'providers.anthropic.endpoint': 'https://api.anthropic.com',
  'providers.anthropic.model': 'claude-sonnet-4-5',
  'providers.gemini.endpoint': 'https://generativelanguage.googleapis.com',
  'providers.gemini.model': 'gemini-2.5-pro',
  'providers.liveCounts': false,
  /** Å, spglib's symprec (core/crystallography/symmetry.ts DEFAULT_SYMPREC). */
  'symmetry.tolerance': 0.001,
  /** US dollars per 1M tokens by tokenizer name (core/counts/cost.ts reads them); an entry replaces the shipped one (shippedPrices.ts). */
  prices: {} as Readonly<Record<string, unknown>>,
  'dataset.epochs': 1,
} as const;

export type SettingKey = keyof typeof SETTING_DEFAULTS;
