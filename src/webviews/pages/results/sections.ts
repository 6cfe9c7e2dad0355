/** The parts of a result page that depend on the run kind: actions and tables. */
import { el, t } from '../bridge';
import { fixed, signed } from '../../results/format';
import type { SinglePointModel } from '../../results/model';
import type { FromResultPage, LatticeRow, ResultView, StructureAction } from '../../results/protocol';
import { pressure } from '../../results/summary';
import { appActions, appTables } from './appSections';
import { button, table } from './dom';

type Post = (message: FromResultPage) => void;

export function actions(view: ResultView, post: Post): HTMLElement[] {
  const m = view.model;
  if ('headline' in m) return appActions(m, post);
  const structure = (label: string, action: StructureAction) =>
    button(label, `structure:${action}`, () => post({ type: 'structure', action }));
  if (m.kind !== 'relax' && m.kind !== 'md') return [];
  const show3d = m.trajectory
    ? [structure(t('Play Trajectory in 3D'), 'show3d')]
    : m.finalPoscar
      ? [structure(t('Show in 3D'), 'show3d')]
      : [];
  if (!m.finalPoscar) return show3d;
  return m.kind === 'relax'
    ? [
        ...show3d,
        structure(t('Open Relaxed Structure'), 'open'),
        structure(t('Compare with Original'), 'compare'),
        structure(t('Save Relaxed POSCAR…'), 'save'),
      ]
    : [...show3d, structure(t('Open Final Structure'), 'open'), structure(t('Save Final POSCAR…'), 'save')];
}

const change = (row: LatticeRow): string =>
  row.before !== undefined && row.after !== undefined && row.before !== 0
    ? `${signed(((row.after - row.before) / row.before) * 100, 2)} %`
    : '';

const value = (x: number | undefined, unit: string): string => (x === undefined ? '–' : `${fixed(x, unit === '°' ? 2 : 4)} ${unit}`);

function latticeTable(rows: LatticeRow[]): HTMLElement {
  return table(
    t('Cell before and after'),
    ['', t('Input'), t('Relaxed'), t('Change')],
    rows.map((r) => ({ cells: [r.name, value(r.before, r.unit), value(r.after, r.unit), change(r)] })),
  );
}

const magnitude = (f: readonly number[]): number => Math.hypot(f[0]!, f[1]!, f[2]!);

function forcesTable(m: SinglePointModel, elements: readonly string[], post: Post): HTMLElement {
  const order = m.forces!.map((f, i) => ({ f, i })).sort((a, b) => magnitude(b.f) - magnitude(a.f));
  return table(
    t('Forces (eV/Å), largest first'),
    [t('Atom'), t('Element'), t('Fx'), t('Fy'), t('Fz'), '|F|'],
    order.map(({ f, i }) => ({
      cells: [String(i + 1), elements[i] ?? m.species?.[i] ?? '', ...f.map((x) => fixed(x, 4)), fixed(magnitude(f), 4)],
      target: `atom:${i}`,
      onClick: () => post({ type: 'selectAtom', index: i }),
    })),
    t('Click a row to select the atom in the input POSCAR.'),
  );
}

function stressTable(m: SinglePointModel): HTMLElement {
  const axes = ['x', 'y', 'z'];
  const note = t(
    'Tensile stress is positive; pressure P = −(σxx + σyy + σzz)/3 = {0} GPa. Unit sent: {1}.',
    fixed(pressure(m.stress!), 3),
    String(m.stressUnit),
  );
  return table(
    t('Stress (GPa)'),
    ['', ...axes],
    m.stress!.map((row, i) => ({ cells: [axes[i]!, ...row.map((x) => fixed(x, 3))] })),
    note,
  );
}

export function tables(view: ResultView, post: Post, runId = ''): HTMLElement[] {
  const m = view.model;
  if ('headline' in m) return appTables(runId, m, post);
  if (m.kind === 'relax' && view.lattice.length) return [latticeTable(view.lattice)];
  if (m.kind !== 'singlePoint') return [];
  return [...(m.forces?.length ? [forcesTable(m, view.elements, post)] : []), ...(m.stress ? [stressTable(m)] : [])];
}

export function images(view: ResultView): HTMLElement[] {
  return view.model.images.map((image) => {
    const figure = el('figure', 'image');
    const img = el('img');
    img.src = image.dataUrl;
    img.alt = t('Image from the service ({0})', image.source);
    figure.append(img, el('figcaption', undefined, image.source === 'answer' ? t("The service's image") : t('From {0}', image.source)));
    return figure;
  });
}
