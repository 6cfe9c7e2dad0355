/** The parts of a result page that depend on the run kind: actions and tables. */
import { el } from '../bridge';
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
  const show3d = m.trajectory ? [structure('Play Trajectory in 3D', 'show3d')] : m.finalPoscar ? [structure('Show in 3D', 'show3d')] : [];
  if (!m.finalPoscar) return show3d;
  return m.kind === 'relax'
    ? [
        ...show3d,
        structure('Open Relaxed Structure', 'open'),
        structure('Compare with Original', 'compare'),
        structure('Save Relaxed POSCAR…', 'save'),
      ]
    : [...show3d, structure('Open Final Structure', 'open'), structure('Save Final POSCAR…', 'save')];
}

const change = (row: LatticeRow): string =>
  row.before !== undefined && row.after !== undefined && row.before !== 0
    ? `${signed(((row.after - row.before) / row.before) * 100, 2)} %`
    : '';

const value = (x: number | undefined, unit: string): string => (x === undefined ? '–' : `${fixed(x, unit === '°' ? 2 : 4)} ${unit}`);

function latticeTable(rows: LatticeRow[]): HTMLElement {
  return table(
    'Cell before and after',
    ['', 'Input', 'Relaxed', 'Change'],
    rows.map((r) => ({ cells: [r.name, value(r.before, r.unit), value(r.after, r.unit), change(r)] })),
  );
}

const magnitude = (f: readonly number[]): number => Math.hypot(f[0]!, f[1]!, f[2]!);

function forcesTable(m: SinglePointModel, elements: readonly string[], post: Post): HTMLElement {
  const order = m.forces!.map((f, i) => ({ f, i })).sort((a, b) => magnitude(b.f) - magnitude(a.f));
  return table(
    'Forces (eV/Å), largest first',
    ['Atom', 'Element', 'Fx', 'Fy', 'Fz', '|F|'],
    order.map(({ f, i }) => ({
      cells: [String(i + 1), elements[i] ?? m.species?.[i] ?? '', ...f.map((x) => fixed(x, 4)), fixed(magnitude(f), 4)],
      target: `atom:${i}`,
      onClick: () => post({ type: 'selectAtom', index: i }),
    })),
    'Click a row to select the atom in the input POSCAR.',
  );
}

function stressTable(m: SinglePointModel): HTMLElement {
  const axes = ['x', 'y', 'z'];
  const note = `Tensile stress is positive; pressure P = −(σxx + σyy + σzz)/3 = ${fixed(pressure(m.stress!), 3)} GPa. Unit sent: ${m.stressUnit}.`;
  return table(
    'Stress (GPa)',
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
    img.alt = `Image from the service (${image.source})`;
    figure.append(img, el('figcaption', undefined, image.source === 'answer' ? "The service's image" : `From ${image.source}`));
    return figure;
  });
}
