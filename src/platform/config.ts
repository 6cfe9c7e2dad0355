import * as vscode from 'vscode';
import { SETTING_DEFAULTS, type SettingKey } from '../core/settings';
import { PARAMETERS, type ParameterKind, type ParameterValue, type ParameterValues } from '../core/runs/parameters';
import { quotePrice, type PriceQuote } from '../core/counts/cost';

/** The one typed place that reads tokenLens.* settings. Getters read live, so nothing caches a stale value. */
export type SpecialTokenMode = 'text' | 'special';

const SECTION = 'tokenLens';

type Widen<T> = T extends string ? string : T extends number ? number : T extends boolean ? boolean : T;

/** The setting's value, or its one default (core/settings.ts). */
function read<K extends SettingKey>(key: K): Widen<(typeof SETTING_DEFAULTS)[K]> {
  return vscode.workspace.getConfiguration(SECTION).get(key, SETTING_DEFAULTS[key]) as Widen<(typeof SETTING_DEFAULTS)[K]>;
}

export const config = {
  get tokenizer(): string {
    return read('tokenizer');
  },
  get specialTokens(): SpecialTokenMode {
    return read('specialTokens') === 'special' ? 'special' : 'text';
  },
  get statusBarEnabled(): boolean {
    return read('statusBar.enabled');
  },
  get compareEncodings(): boolean {
    return read('statusBar.compareEncodings');
  },
  /** Count JSON conversations and JSONL datasets as the model reads them (its chat template or framing). */
  get countConversations(): boolean {
    return read('chat.countConversations');
  },
  /** The context window the status bar measures against (size 0: no gauge). */
  get contextWindow(): { size: number; reserve: number; warnAt: number } {
    const whole = (key: 'contextWindow.size' | 'contextWindow.reserve' | 'contextWindow.warningPercent', max: number): number => {
      const n = read(key);
      return Number.isInteger(n) && n >= 0 ? Math.min(n, max) : SETTING_DEFAULTS[key];
    };
    return {
      size: whole('contextWindow.size', 100_000_000),
      reserve: whole('contextWindow.reserve', 100_000_000),
      warnAt: whole('contextWindow.warningPercent', 100),
    };
  },
  /** Use the built-in local service (the reference models on this machine) instead of the URL. */
  get serviceBuiltin(): boolean {
    return read('service.builtin');
  },
  get serviceBaseUrl(): string {
    return read('service.baseUrl').trim();
  },
  get serviceTimeoutMs(): number {
    return Math.max(1, read('service.timeoutSeconds')) * 1000;
  },
  get serviceMaxRetries(): number {
    return Math.min(10, Math.max(0, Math.floor(read('service.maxRetries'))));
  },
  get serviceLogBodies(): boolean {
    return read('service.logBodies');
  },
  get serviceMaxResponseBytes(): number {
    const mb = read('service.maxResponseMegabytes');
    return Math.min(4096, Math.max(1, Number.isFinite(mb) ? mb : SETTING_DEFAULTS['service.maxResponseMegabytes'])) * 1024 * 1024;
  },
  /**
   * The relax or MD parameters as the settings hold them, by request field name (core/runs/parameters.ts).
   * Checked where they are used (firstProblem): a wrong value is refused with a message, not replaced silently.
   */
  parameters(kind: ParameterKind): ParameterValues {
    return Object.fromEntries(PARAMETERS[kind].map((p) => [p.name, read(p.setting) as ParameterValue]));
  },
  /** Å, for the locally computed powder pattern. Checked where it is used: a wrong value is refused with a message. */
  get xrdWavelength(): number {
    return read('xrd.wavelength');
  },
  /** Checked where it is used: a wrong value is refused with a message, not replaced silently. */
  get kpathDensity(): number {
    return read('tightbinding.kpathDensity');
  },
  /** The space-group search's distance tolerance, Å (spglib's symprec); checked where it is used (core/crystallography/symmetry.ts). */
  get symmetryTolerance(): number {
    return read('symmetry.tolerance');
  },
  /** How many characters of a line the editor draws (editor.stopRenderingLineAfter; −1, no limit, is Infinity). */
  renderedLineLength(document: vscode.TextDocument): number {
    const n = vscode.workspace.getConfiguration('editor', document).get<number>('stopRenderingLineAfter', 10_000);
    return typeof n === 'number' && n >= 0 ? n : Infinity;
  },
  /** tokenizer.json files to count with (machine scope: a workspace cannot make the editor read files). Non-strings dropped. */
  get modelFiles(): string[] {
    const files: unknown = read('models.tokenizerFiles');
    return Array.isArray(files) ? files.filter((f): f is string => typeof f === 'string' && f.trim() !== '').map((f) => f.trim()) : [];
  },
  /** Where a provider's exact counts are asked for, and for which model (machine settings: the key goes there). */
  provider(id: 'anthropic' | 'gemini'): { endpoint: string; model: string } {
    const endpoint = read(`providers.${id}.endpoint`).trim().replace(/\/+$/, '') || SETTING_DEFAULTS[`providers.${id}.endpoint`];
    const model = read(`providers.${id}.model`).trim() || SETTING_DEFAULTS[`providers.${id}.model`];
    return { endpoint, model };
  },
  /** Ask the provider again after each pause in typing (where consent and a key are already given). */
  get providerLiveCounts(): boolean {
    return read('providers.liveCounts');
  },
  /** The price of the tokenizer `name` (USD per 1M tokens): the user's entry, else the shipped one; undefined when neither. */
  price(name: string): PriceQuote | undefined {
    return quotePrice(name, read('prices'));
  },
  /** Training epochs a dataset's cost is multiplied by (1-100). */
  get datasetEpochs(): number {
    const n = read('dataset.epochs');
    return Number.isInteger(n) && n >= 1 ? Math.min(n, 100) : SETTING_DEFAULTS['dataset.epochs'];
  },
  /** Where Add Model Tokenizer downloads from (machine scope: the access token goes there). */
  get hubEndpoint(): string {
    return read('models.hubEndpoint').trim().replace(/\/+$/, '') || SETTING_DEFAULTS['models.hubEndpoint'];
  },
};

/** The service URL as the user, workspace and folder settings each have it: whose URL is in effect matters. */
export function inspectServiceBaseUrl(): { globalValue?: string; workspaceValue?: string; workspaceFolderValue?: string } | undefined {
  return vscode.workspace.getConfiguration(SECTION).inspect<string>('service.baseUrl');
}

/** Writes a setting where the user keeps it: the workspace if it is set there, else the user settings. */
export async function updateSetting(key: string, value: unknown): Promise<void> {
  const configuration = vscode.workspace.getConfiguration(SECTION);
  const inspected = configuration.inspect(key);
  const target = inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await configuration.update(key, value, target);
}

/** Writes a setting into the user settings (undefined removes it there), wherever else it is set. */
export async function updateUserSetting<K extends SettingKey>(
  key: K,
  value: Widen<(typeof SETTING_DEFAULTS)[K]> | undefined,
): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update(key, value, vscode.ConfigurationTarget.Global);
}

/** Fires when any tokenLens.* setting changes; `affects(key)` narrows it. */
export function onDidChangeConfig(listener: (affects: (key: string) => boolean) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(SECTION)) {
      listener((key) => event.affectsConfiguration(`${SECTION}.${key}`));
    }
  });
}
