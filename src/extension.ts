// First: marks when the bundle began to load (see core/util/loadStart.ts).
import './core/util/loadStart';
import * as vscode from 'vscode';
import type { TokenLensApi } from './api';
import { diffractionDiagnostics } from './features/diffraction/language';
import { PoscarLanguageFeature } from './features/poscar/language';
import { materialsRuns } from './runs';
import { RUN_COMMANDS } from './runs/structureRunner';
import { SHOW_STRUCTURE } from './webviews/structure/feature';
import { activateWith, type Wiring } from './wiring';

export function activate(context: vscode.ExtensionContext): TokenLensApi {
  return activateWith(context, desktopFeatures);
}

/** The service, its runs and views, and the POSCAR and diffraction editors: the desktop host runs them all. */
function desktopFeatures({ context, log, testMode, start }: Wiring): void {
  start('the materials service', () => materialsRuns(context, log, testMode));
  // What the host can do, not what the UI is: code-server and Codespaces are browser UIs with this Node host.
  void vscode.commands.executeCommand('setContext', 'tokenLens.serviceAvailable', true);
  start('diffraction-data problems', () => diffractionDiagnostics(log));
  start('the POSCAR editor', () => new PoscarLanguageFeature(log, [
    { title: '$(symbol-structure) Show Structure', command: SHOW_STRUCTURE },
    { title: '$(debug-step-into) Relax', command: RUN_COMMANDS.relax },
    { title: '$(zap) Energy and Forces', command: RUN_COMMANDS.singlePoint },
    { title: '$(pulse) Molecular Dynamics', command: RUN_COMMANDS.md },
    { title: '$(graph-line) Band Structure', command: RUN_COMMANDS.tightbinding },
  ]));
}

export function deactivate(): void {}
