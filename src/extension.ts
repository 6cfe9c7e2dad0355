// First: marks when the bundle began to load (see core/util/loadStart.ts).
import './core/util/loadStart';
import * as vscode from 'vscode';
import type { TokenLensApi } from './api';
import { LazyMaterials } from './materialsLoader';
import { ModelsFeature } from './features/models/feature';
import { ProvidersFeature } from './features/providers/feature';
import { RenderPool, renderWorkerScript } from './features/chat/renderPool';
import { readChatConfig } from './features/models/store';
import { activateWith, type HostHooks, type Wiring } from './wiring';
import { toDisposable } from './platform/disposable';
import { showStructureMenus } from './features/structures/menus';

/** Every module the bundle evaluates at load is evaluated by the time this line runs (the bench splits the load here). */
const EVALUATED = performance.now();

export async function activate(context: vscode.ExtensionContext): Promise<TokenLensApi> {
  let materials: LazyMaterials | undefined;
  // Chat templates are outside text: they render on a worker thread with a heap limit, started on first use.
  const templates = new RenderPool({ script: renderWorkerScript(__dirname) });
  context.subscriptions.push(toDisposable(() => void templates.close()));
  const api = activateWith(
    context,
    (wiring) => {
      materials = desktopFeatures(wiring);
      return { materialsStartedBy: () => materials?.reason, evaluatedAt: EVALUATED } satisfies HostHooks;
    },
    // Open models (tokenizer.json files and downloads): they read files, so the desktop only.
    ({ context, log, locale }) => new ModelsFeature(context, log, locale),
    { readChatConfig: (file) => readChatConfig(file), render: templates.render },
  );
  // Resolves once the stand-ins exist, so a command that activated the extension finds one.
  await materials?.watch();
  return api;
}

/** The token features plus the materials side, which starts on first use (materialsLoader.ts). */
function desktopFeatures(wiring: Wiring): LazyMaterials {
  // What the host can do, not what the UI is: code-server and Codespaces are browser UIs with this Node host.
  void vscode.commands.executeCommand('setContext', 'tokenLens.serviceAvailable', true);
  showStructureMenus();
  // Exact Claude and Gemini counts on request: an HTTP client, so the desktop only.
  wiring.start('exact provider counts', () => new ProvidersFeature(wiring.context, wiring.log, wiring.locale));
  const materials = new LazyMaterials(wiring);
  wiring.context.subscriptions.push(materials);
  return materials;
}

export function deactivate(): void {}
