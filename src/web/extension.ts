// VS Code for the Web (vscode.dev, github.dev): the extension host is a browser worker, without Node.
import '../core/util/loadStart';
import * as vscode from 'vscode';
import type { TokenLensApi } from '../api';
import { FormatDiagnostics } from '../features/structures/diagnostics';
import { StructureLanguageFeature } from '../features/structures/language';
import { activateWith, type Wiring } from '../wiring';
import { KpointsCommand } from '../features/poscar/kpoints';
import { PoscarLanguageFeature } from '../features/poscar/language';
import { SymmetryFeature } from '../features/symmetry/feature';
import { useRankSource } from '../core/tokenizers/tiktoken/ranks';
import { extensionRanks } from './ranks';
import { notify } from '../platform/notify';
import { showStructureMenus } from '../features/structures/menus';

export function activate(context: vscode.ExtensionContext): TokenLensApi {
  useRankSource(extensionRanks(context.extensionUri));
  return activateWith(context, webFeatures);
}

/**
 * The editors of every materials format run as on the desktop (without run lenses). The service
 * commands are left out: the desktop client is undici's keep-alive Agent with its request policy,
 * which needs Node; every command the web build does not run says so instead of "command not found".
 */
function webFeatures({ context, log, start }: Wiring): void {
  start('the materials formats’ problems', () => new FormatDiagnostics(log));
  start('the POSCAR editor', () => {
    // moyo's bindings are in this bundle, its .wasm read from dist/ on the first search; the k-path is pure.
    const symmetry = new SymmetryFeature(context.extensionUri);
    return [symmetry, new PoscarLanguageFeature([], symmetry.hooks), new KpointsCommand(log, symmetry.standardize)];
  });
  start('the structure editors', () => new StructureLanguageFeature([]));
  showStructureMenus();
  void explainDesktopOnly(context);
}

async function explainDesktopOnly(context: vscode.ExtensionContext): Promise<void> {
  const contributed = (context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? [];
  const registered = new Set(await vscode.commands.getCommands(true));
  for (const { command } of contributed) {
    if (registered.has(command)) continue;
    context.subscriptions.push(
      vscode.commands.registerCommand(command, () => {
        void notify.info(
          vscode.l10n.t(
            'Token Lens: this command needs the desktop VS Code (the materials-science service and its runs are not part of VS Code for the Web). Token counts, the inspector and token boundaries work here.',
          ),
        );
      }),
    );
  }
}

export function deactivate(): void {}
