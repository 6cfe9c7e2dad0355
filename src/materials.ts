/**
 * The materials side of the desktop host: the service, its runs and their views, and the editors of
 * every registered format (core/structures/formats.ts). materialsLoader.ts starts it on first use, with require(), so that until then its
 * modules are neither evaluated nor wired.
 */
import * as vscode from 'vscode';
import { KpointsCommand } from './features/poscar/kpoints';
import { PoscarLanguageFeature } from './features/poscar/language';
import { FormatDiagnostics } from './features/structures/diagnostics';
import { StructureLanguageFeature } from './features/structures/language';
import { SymmetryFeature } from './features/symmetry/feature';
import { SymmetryPool, symmetryWorkerScript } from './platform/symmetryPool';
import { CONVERT_COMMANDS, RELAXATION_SUMMARY, TRAJECTORY_ANALYSIS } from './runs/structureFiles';
import { hasTrajectory } from './webviews/results/trajectoryFile';
import { hasIonicSteps } from './webviews/results/relaxationFile';
import { materialsRuns } from './runs';
import { OPTIONS_COMMANDS, RUN_COMMANDS } from './runs/structureRunner';
import { SHOW_STRUCTURE } from './webviews/structure/feature';
import { POWDER_PATTERN, PowderPatternFeature } from './webviews/xrd/feature';
import type { RunsTree } from './runs/tree';
import type { ResultViews } from './webviews/results/feature';
import type { Wiring } from './wiring';
import { toDisposable } from './platform/disposable';

/** Starts it; returns the Runs list's data (undefined if the service failed to start: the failure is logged). */
export function startMaterials({ context, log, testMode, start }: Wiring): RunsTree | undefined {
  let tree: RunsTree | undefined;
  let results: ResultViews | undefined;
  start('the materials service', () => {
    const made = materialsRuns(context, log, testMode);
    tree = made.tree;
    results = made.results;
    return made.disposables;
  });
  start('the materials formats’ problems', () => new FormatDiagnostics(log));
  start('the powder pattern', () => new PowderPatternFeature(context, log, testMode, results));
  start('the POSCAR editor', () => {
    // The space group and the cell commands; moyo loads on the first search (a lens or hover asks), not here, and
    // searches run on a worker thread, which starts on that first search too.
    const pool = new SymmetryPool(symmetryWorkerScript(__dirname));
    const symmetry = new SymmetryFeature(context.extensionUri, pool.search);
    return [
      toDisposable(() => void pool.close()),
      symmetry,
      new PoscarLanguageFeature(
        [
          { title: vscode.l10n.t('$(symbol-structure) Show Structure'), command: SHOW_STRUCTURE },
          { title: vscode.l10n.t('$(debug-step-into) Relax'), command: RUN_COMMANDS.relax },
          { title: vscode.l10n.t('$(settings) Relax with Options…'), command: OPTIONS_COMMANDS.relax },
          { title: vscode.l10n.t('$(zap) Energy and Forces'), command: RUN_COMMANDS.singlePoint },
          { title: vscode.l10n.t('$(pulse) Molecular Dynamics'), command: RUN_COMMANDS.md },
          { title: vscode.l10n.t('$(settings) MD with Options…'), command: OPTIONS_COMMANDS.md },
          { title: vscode.l10n.t('$(graph-line) Band Structure'), command: RUN_COMMANDS.tightbinding },
          { title: vscode.l10n.t('$(graph-scatter) Powder Pattern'), command: POWDER_PATTERN },
        ],
        symmetry.hooks,
      ),
      // The k-path's lattice from the space group (moyo), else from the cell's metric.
      new KpointsCommand(log, symmetry.standardize),
    ];
  });
  start(
    'the structure editors',
    () =>
      new StructureLanguageFeature([
        { title: vscode.l10n.t('$(symbol-structure) Show Structure'), command: SHOW_STRUCTURE },
        {
          title: vscode.l10n.t('$(graph-line) Relaxation Summary'),
          command: RELAXATION_SUMMARY,
          when: (f) => f.frames.length > 1 && hasIonicSteps(f),
        },
        {
          title: vscode.l10n.t('$(graph-scatter) Trajectory Analysis'),
          command: TRAJECTORY_ANALYSIS,
          when: (f) => (f.format === 'xdatcar' || f.format === 'xyz') && hasTrajectory(f),
        },
        { title: vscode.l10n.t('$(debug-step-into) Relax'), command: RUN_COMMANDS.relax },
        { title: vscode.l10n.t('$(zap) Energy and Forces'), command: RUN_COMMANDS.singlePoint },
        { title: vscode.l10n.t('$(pulse) Molecular Dynamics'), command: RUN_COMMANDS.md },
        { title: vscode.l10n.t('$(graph-line) Band Structure'), command: RUN_COMMANDS.tightbinding },
        // Conversions to the other writable formats (a file is not converted to its own).
        { title: vscode.l10n.t('$(file-symlink-file) → POSCAR'), command: CONVERT_COMMANDS.poscar },
        { title: vscode.l10n.t('$(file-symlink-file) → CIF'), command: CONVERT_COMMANDS.cif, when: (f) => f.format !== 'cif' },
        { title: vscode.l10n.t('$(file-symlink-file) → Extended XYZ'), command: CONVERT_COMMANDS.xyz, when: (f) => f.format !== 'xyz' },
      ]),
  );
  return tree;
}
