/**
 * The parts of an application's result page: Save as JSON, the returned structure's actions, and
 * tables that sort by any column (click its heading; again to reverse) and page through long lists.
 * Rows that name an item open it (GET /{app}/detail/{id}). Text only, through textContent.
 */
import { el, t } from '../bridge';
import type { AppModel, AppRow, AppTable } from '../../results/apps/model';
import type { FromResultPage } from '../../results/protocol';
import { button, table } from './dom';

type Post = (message: FromResultPage) => void;

interface TableState {
  column: number;
  descending: boolean;
  page: number;
}
/** Sort and page of each table, kept across re-renders of the same run. */
const states = new Map<string, TableState>();

export function appActions(m: AppModel, post: Post): HTMLElement[] {
  const save = button(t('Save as JSON…'), 'save-json', () => post({ type: 'saveJson' }), t("Save the service's answer as a JSON file"));
  if (!m.poscar) return [save];
  return [
    button(
      t('Open Structure'),
      'structure:open',
      () => post({ type: 'structure', action: 'open' }),
      t('Open the structure as a POSCAR document'),
    ),
    button(t('Save POSCAR…'), 'structure:save', () => post({ type: 'structure', action: 'save' })),
    save,
  ];
}

export function appTables(runId: string, m: AppModel, post: Post): HTMLElement[] {
  return m.tables.map((tab) => {
    const holder = el('div', 'app-table');
    const key = `${runId}:${tab.id}`;
    const draw = (): void =>
      holder.replaceChildren(
        renderTable(
          tab,
          states.get(key) ?? { column: -1, descending: false, page: 0 },
          (next) => {
            states.set(key, next);
            draw();
          },
          post,
        ),
      );
    draw();
    return holder;
  });
}

function compare(a: AppRow, b: AppRow, column: number): number {
  const [x, y] = [a.keys[column] ?? null, b.keys[column] ?? null];
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1; // gaps last
  return typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
}

function renderTable(tab: AppTable, state: TableState, change: (s: TableState) => void, post: Post): HTMLElement {
  const order = state.column < 0 ? tab.rows : [...tab.rows].sort((a, b) => (state.descending ? -1 : 1) * compare(a, b, state.column));
  const size = tab.pageSize ?? Math.max(1, tab.rows.length);
  const pages = Math.max(1, Math.ceil(order.length / size));
  const page = Math.min(state.page, pages - 1);
  const shown = order.slice(page * size, (page + 1) * size);
  const section = table(
    tab.title,
    tab.columns,
    shown.map((row) => ({
      cells: row.cells,
      ...(row.detail && tab.detailApp
        ? { target: `detail:${row.detail}`, onClick: () => post({ type: 'detail', app: tab.detailApp!, id: row.detail! }) }
        : {}),
    })),
    tab.note,
  );
  section.querySelectorAll('thead th').forEach((th, column) => {
    const label = th.textContent ?? '';
    const sorted = column === state.column;
    const sort = button(
      `${label}${sorted ? (state.descending ? ' ▼' : ' ▲') : ''}`,
      `sort:${tab.id}:${column}`,
      () => change({ column, descending: sorted ? !state.descending : false, page: 0 }),
      t('Sort by {0}', label),
    );
    sort.className = 'sort';
    th.setAttribute('aria-sort', sorted ? (state.descending ? 'descending' : 'ascending') : 'none');
    th.replaceChildren(sort);
  });
  if (pages > 1) {
    const pager = el('div', 'pager');
    const first = page * size + 1;
    const prev = button(t('‹ Previous'), `page:${tab.id}:prev`, () => change({ ...state, page: page - 1 }));
    const next = button(t('Next ›'), `page:${tab.id}:next`, () => change({ ...state, page: page + 1 }));
    prev.disabled = page === 0;
    next.disabled = page === pages - 1;
    pager.append(
      prev,
      el(
        'span',
        'page-label',
        t('Rows {0}–{1} of {2}', first.toLocaleString(), (first + shown.length - 1).toLocaleString(), order.length.toLocaleString()),
      ),
      next,
    );
    section.append(pager);
  }
  return section;
}
