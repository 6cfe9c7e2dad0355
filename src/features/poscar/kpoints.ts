/**
 * Generate KPOINTS (Line Mode)…: the Setyawan-Curtarolo band path (core/crystallography) of the open POSCAR as a
 * VASP line-mode KPOINTS file in a new untitled editor. It asks the density (points per Å⁻¹, the band-structure
 * run's tokenLens.tightbinding.kpathDensity by default). The space group and standard cell come from an injected
 * `standardize` (a symmetry finder); without one, or when it finds nothing, the lattice type comes from the cell's
 * metric and the file's comment line says so.
 */
import * as vscode from 'vscode';
import { bandPathKpoints, type Crystal, type Standardize } from '../../core/crystallography/kpoints';
import { SETTING_DEFAULTS } from '../../core/settings';
import { config } from '../../platform/config';
import { Disposable } from '../../platform/disposable';
import { notify } from '../../platform/notify';
import { firstError, isPoscar, parsed } from '../../platform/poscarDocuments';

export const GENERATE_KPOINTS = 'tokenLens.generateKpoints';

export interface KpointsArgs {
  uri?: vscode.Uri | string;
  /** Points per Å⁻¹; when given, nothing is asked. */
  density?: number;
}

/** Why a density cannot be used, or undefined: a whole number from 1 to 1000, as the band-structure run's. */
export function densityProblem(value: number): string | undefined {
  return Number.isInteger(value) && value >= 1 && value <= 1000
    ? undefined
    : vscode.l10n.t('The density is a whole number of points per Å⁻¹ from 1 to 1000.');
}

export class KpointsCommand extends Disposable {
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly standardize?: Standardize,
  ) {
    super();
    this.register(
      vscode.commands.registerCommand(GENERATE_KPOINTS, (arg?: vscode.Uri | KpointsArgs) =>
        this.run(arg instanceof vscode.Uri ? { uri: arg } : (arg ?? {})),
      ),
    );
  }

  /** The new KPOINTS document, or undefined when nothing was written (the user was told why, or cancelled). */
  async run(args: KpointsArgs): Promise<vscode.TextDocument | undefined> {
    const uri = typeof args.uri === 'string' ? vscode.Uri.parse(args.uri) : args.uri;
    const document = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    if (!document || !isPoscar(document)) {
      void notify.warning(
        vscode.l10n.t('Open a POSCAR file to generate its KPOINTS: Token Lens reads the structure in the active editor.'),
      );
      return undefined;
    }
    const result = parsed(document);
    const error = firstError(result);
    if (!result.poscar || error) {
      void notify.error(
        vscode.l10n.t('The POSCAR has an error ({0}): no KPOINTS was written.', error?.message ?? vscode.l10n.t('no structure')),
      );
      return undefined;
    }
    const density = args.density ?? (await askDensity());
    if (density === undefined) return undefined;
    const problem = densityProblem(density);
    if (problem) {
      void notify.error(vscode.l10n.t('{0} No KPOINTS was written.', problem));
      return undefined;
    }
    const { poscar } = result;
    const crystal: Crystal = {
      lattice: poscar.lattice,
      species: poscar.sites.map((s) => s.species),
      positions: poscar.sites.map((s) => s.cart),
    };
    let standardized;
    try {
      standardized = await this.standardize?.(crystal);
    } catch (e) {
      this.log.warn(
        `KPOINTS: no space group found (${e instanceof Error ? e.message : String(e)}); the lattice type comes from the cell metric.`,
      );
    }
    const kpoints = bandPathKpoints(crystal, density, standardized);
    this.log.info(`KPOINTS: ${kpoints.variant} path (${kpoints.source}), ${kpoints.divisions} points per segment.`);
    const made = await vscode.workspace.openTextDocument({ content: kpoints.text, language: 'plaintext' });
    await vscode.window.showTextDocument(made, { preview: false });
    return made;
  }
}

async function askDensity(): Promise<number | undefined> {
  const setting = config.kpathDensity;
  const value = densityProblem(setting) ? SETTING_DEFAULTS['tightbinding.kpathDensity'] : setting;
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('Generate KPOINTS (Line Mode)'),
    prompt: vscode.l10n.t(
      'Points per Å⁻¹ along the Setyawan-Curtarolo path (reciprocal vectors with the 2π); the longest segment sets the points per segment.',
    ),
    value: String(value),
    validateInput: (text) => densityProblem(Number(text.trim())),
  });
  return typed === undefined ? undefined : Number(typed.trim());
}
