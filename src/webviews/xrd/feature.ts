/**
 * Powder Pattern of This Structure: the X-ray powder pattern of the POSCAR in the editor, computed on this machine
 * (no service), shown beside it in a result view (the plot with each peak's hkl under the pointer, the table of
 * peaks), drawn over the measured pattern of an open diffraction file with a match score; and Export Pattern…,
 * which saves the peaks as a two-column .xy file. The structure is read here; patternRun.ts takes any structure.
 */
import * as vscode from 'vscode';
import { Disposable } from '../../platform/disposable';
import { config } from '../../platform/config';
import { notify } from '../../platform/notify';
import { parsed, isPoscar } from '../../platform/poscarDocuments';
import { errorsOf, parseDiffraction } from '../../core/diffraction/parse';
import { MAX_WAVELENGTH, MIN_WAVELENGTH, patternXy, powderPattern, XrdError, type XrdStructure } from '../../core/crystallography/xrd';
import { PanelSet } from '../panelSet';
import { panelOptions } from '../host';
import { viewsColumn } from '../column';
import { exists, tryParse } from '../uris';
import { ResultPanel } from '../results/panel';
import { RESULT_VIEW_TYPE } from '../results/protocol';
import { ResultDocuments } from '../results/structures';
import { runTitle, type RunRecord } from '../../core/runs/run';
import type { ResultViews } from '../results/feature';
import { patternRun, type Measured } from './patternRun';
import { xrdTestDriver } from './testDriver';
import { hostLocale } from '../../platform/locale';

export const POWDER_PATTERN = 'tokenLens.powderPattern';
export const EXPORT_PATTERN = 'tokenLens.exportPattern';
const DIFFRACTION_LANGUAGE = 'diffraction';

/** The pattern's record id: this prefix, then the structure file's URI. */
const XRD_ID_PREFIX = 'xrd:';

const baseName = (uri: vscode.Uri): string => uri.path.split('/').pop() || 'structure';

export class PowderPatternFeature extends Disposable {
  private readonly panels = this.register(new PanelSet<ResultPanel>());
  private readonly documents = this.register(new ResultDocuments());

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly testMode: boolean,
    /** The result views' serializer, which hands this the pages of patterns after a reload. */
    results?: ResultViews,
  ) {
    super();
    if (results) this.register(results.restoreLocal(XRD_ID_PREFIX, (panel, id) => this.restore(panel, id)));
    this.register(vscode.commands.registerCommand(POWDER_PATTERN, (uri?: vscode.Uri) => this.show(uri)));
    this.register(vscode.commands.registerCommand(EXPORT_PATTERN, (uri?: vscode.Uri, target?: vscode.Uri) => this.export(uri, target)));
    if (TEST_HOOKS && testMode) this.register(xrdTestDriver(this.panels));
  }

  /** The POSCAR of the command's argument or the active editor, as a structure; a message when there is none. */
  private async structure(uri: vscode.Uri | undefined): Promise<{ structure: XrdStructure; document: vscode.TextDocument } | undefined> {
    const document = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    if (!document || !isPoscar(document)) {
      void notify.warning(vscode.l10n.t('Open a POSCAR file to compute its powder pattern.'));
      return undefined;
    }
    const { poscar, diagnostics } = parsed(document);
    const error = diagnostics.find((d) => d.severity === 'error');
    if (!poscar || error) {
      void notify.error(
        vscode.l10n.t('{0} cannot be read as a structure: {1}', baseName(document.uri), error?.message ?? vscode.l10n.t('no atoms')),
      );
      return undefined;
    }
    return {
      document,
      structure: { lattice: poscar.lattice, species: poscar.sites.map((s) => s.species), positions: poscar.sites.map((s) => s.cart) },
    };
  }

  /** The setting, checked: a wrong value is a message, not a silent default. */
  private wavelength(): number | undefined {
    const value = config.xrdWavelength;
    if (typeof value === 'number' && value >= MIN_WAVELENGTH && value <= MAX_WAVELENGTH) return value;
    void notify.error(
      vscode.l10n.t(
        'tokenLens.xrd.wavelength must be a wavelength in Å from {0} to {1}, not {2}.',
        MIN_WAVELENGTH,
        MAX_WAVELENGTH,
        String(value),
      ),
    );
    return undefined;
  }

  /** The measured pattern of a diffraction file: a visible one first, else any open; none when its data has errors. */
  private measured(): Measured | undefined {
    const visible = vscode.window.visibleTextEditors.map((e) => e.document).filter((d) => d.languageId === DIFFRACTION_LANGUAGE);
    const open = vscode.workspace.textDocuments.filter((d) => d.languageId === DIFFRACTION_LANGUAGE);
    for (const document of [...visible, ...open]) {
      const data = parseDiffraction(document.getText());
      if (data.points.length > 1 && errorsOf(data).length === 0) return { name: baseName(document.uri), points: data.points };
    }
    return undefined;
  }

  private async show(uri: vscode.Uri | undefined): Promise<void> {
    const read = await this.structure(uri);
    if (!read) return;
    const run = this.compute(read);
    if (!run) return;
    const key = read.document.uri.toString();
    const existing = this.panels.get(key);
    if (existing) {
      existing.update(run);
      existing.panel.reveal(existing.panel.viewColumn, true);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      RESULT_VIEW_TYPE,
      runTitle(run, hostLocale().t),
      { viewColumn: viewsColumn(), preserveFocus: true },
      panelOptions(this.context.extensionUri),
    );
    this.adopt(panel, run, read.document.uri);
  }

  /** The finished run of a structure, over the measured pattern of an open diffraction file; undefined after a message. */
  private compute(read: { structure: XrdStructure; document: vscode.TextDocument }): RunRecord | undefined {
    const wavelength = this.wavelength();
    if (wavelength === undefined) return undefined;
    const measured = this.measured();
    try {
      return patternRun({
        structure: read.structure,
        name: baseName(read.document.uri),
        uri: read.document.uri.toString(),
        wavelength,
        ...(measured ? { measured } : {}),
        // One id per file: the page keeps it, and after a reload it names the file to compute from again.
        id: `${XRD_ID_PREFIX}${read.document.uri.toString()}`,
        now: Date.now(),
      });
    } catch (error) {
      if (!(error instanceof XrdError)) throw error;
      void notify.error(vscode.l10n.t('No powder pattern for {0}: {1}', baseName(read.document.uri), error.message));
      return undefined;
    }
  }

  private adopt(panel: vscode.WebviewPanel, run: RunRecord, uri: vscode.Uri): void {
    // Computed here: nothing to cancel, retry or open from a row; the structure buttons act on the input file.
    const actions = { onCancel: () => undefined, onRetry: () => void this.show(uri), onShow3d: () => undefined };
    this.panels.add(
      uri.toString(),
      new ResultPanel(panel, this.context.extensionUri, run, this.testMode, actions, this.documents, this.log),
    );
  }

  /** After a window reload: the pattern computed again from the file the page names, or a message saying why not. */
  private async restore(panel: vscode.WebviewPanel, id: string): Promise<void> {
    const uri = tryParse(id.slice(XRD_ID_PREFIX.length));
    const gone = !uri || !(await exists(uri));
    const read = gone ? undefined : await this.structure(uri);
    const run = read && this.compute(read);
    if (!read || !run) {
      panel.dispose();
      if (gone)
        void notify.warning(
          vscode.l10n.t(
            'The powder pattern of {0} did not come back after the reload: {1} is gone.',
            uri ? baseName(uri) : vscode.l10n.t('a structure'),
            uri?.scheme === 'file' ? uri.fsPath : (uri?.toString() ?? id),
          ),
        );
      return;
    }
    this.adopt(panel, run, read.document.uri);
  }

  private async export(uri: vscode.Uri | undefined, target: vscode.Uri | undefined): Promise<void> {
    const read = await this.structure(uri);
    const wavelength = this.wavelength();
    if (!read || wavelength === undefined) return;
    let text: string;
    try {
      text = patternXy(powderPattern(read.structure, { wavelength }), baseName(read.document.uri));
    } catch (error) {
      if (!(error instanceof XrdError)) throw error;
      void notify.error(vscode.l10n.t('No powder pattern for {0}: {1}', baseName(read.document.uri), error.message));
      return;
    }
    const suggested = vscode.Uri.joinPath(
      read.document.uri,
      '..',
      `${baseName(read.document.uri).replace(/\.(vasp|poscar)$/i, '')}.xrd.xy`,
    );
    const where =
      target ??
      (await vscode.window.showSaveDialog({
        defaultUri: suggested,
        filters: { 'Diffraction data': ['xy'] },
        saveLabel: vscode.l10n.t('Export Pattern'),
      }));
    if (!where) return;
    await vscode.workspace.fs.writeFile(where, new TextEncoder().encode(text));
    this.log.info(`Exported the powder pattern of ${read.document.uri.toString()} to ${where.toString()}.`);
  }
}
