/**
 * The materials side of the desktop host: the service, its runs and their views, and the POSCAR and
 * diffraction editors. materialsLoader.ts starts it on first use, with require(), so that until then its
 * modules are neither evaluated nor wired.
 */
import { diffractionDiagnostics } from './features/diffraction/language';
import { KpointsCommand } from './features/poscar/kpoints';
import { PoscarLanguageFeature } from './features/poscar/language';
import { SymmetryFeature } from './features/symmetry/feature';
import { materialsRuns } from './runs';
import { OPTIONS_COMMANDS, RUN_COMMANDS } from './runs/structureRunner';
import { SHOW_STRUCTURE } from './webviews/structure/feature';
import { POWDER_PATTERN, PowderPatternFeature } from './webviews/xrd/feature';
import type { RunsTree } from './runs/tree';
import type { Wiring } from './wiring';

/** Starts it; returns the Runs list's data (undefined if the service failed to start: the failure is logged). */
export function startMaterials({ context, log, testMode, start }: Wiring): RunsTree | undefined {
  let tree: RunsTree | undefined;
  start('the materials service', () => {
    const made = materialsRuns(context, log, testMode);
    tree = made.tree;
    return made.disposables;
  });
  start('diffraction-data problems', () => diffractionDiagnostics(log));
  start('the powder pattern', () => new PowderPatternFeature(context, log, testMode));
  start('the POSCAR editor', () => {
    // The space group and the cell commands; moyo loads on the first search (a lens or hover asks), not here.
    const symmetry = new SymmetryFeature(context.extensionUri);
    return [
      symmetry,
      new PoscarLanguageFeature(
        log,
        [
          { title: '$(symbol-structure) Show Structure', command: SHOW_STRUCTURE },
          { title: '$(debug-step-into) Relax', command: RUN_COMMANDS.relax },
          { title: '$(settings) Relax with Options…', command: OPTIONS_COMMANDS.relax },
          { title: '$(zap) Energy and Forces', command: RUN_COMMANDS.singlePoint },
          { title: '$(pulse) Molecular Dynamics', command: RUN_COMMANDS.md },
          { title: '$(settings) MD with Options…', command: OPTIONS_COMMANDS.md },
          { title: '$(graph-line) Band Structure', command: RUN_COMMANDS.tightbinding },
          { title: '$(graph-scatter) Powder Pattern', command: POWDER_PATTERN },
        ],
        symmetry.hooks,
      ),
      // The k-path's lattice from the space group (moyo), else from the cell's metric.
      new KpointsCommand(log, symmetry.standardize),
    ];
  });
  return tree;
}
