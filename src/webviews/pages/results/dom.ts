/** Small DOM builders of the result page: buttons and tables that the test seam can find and click. */
import { el } from '../bridge';

/** A button; `target` names it for the test seam (data-target). */
export function button(label: string, target: string, onClick: () => void, title?: string): HTMLButtonElement {
  const node = el('button', undefined, label);
  node.dataset.target = target;
  if (title) node.title = title;
  node.addEventListener('click', onClick);
  return node;
}

const NUMERIC = /^[−+-]?[\d.]/;

export interface Row {
  cells: string[];
  /** Clickable rows: their target and action. */
  target?: string;
  onClick?: () => void;
}

/** A titled table; text only, through textContent. */
export function table(title: string, head: string[], rows: Row[], note?: string): HTMLElement {
  const section = el('section', 'table-block');
  section.dataset.title = title;
  section.append(el('h3', undefined, title));
  const grid = el('table');
  const headRow = el('tr');
  const textColumn = (i: number): boolean => i > 0 && rows.length > 0 && !NUMERIC.test(rows[0]!.cells[i] ?? '');
  headRow.append(...head.map((h, i) => el('th', textColumn(i) ? 'text' : undefined, h)));
  grid.append(el('thead'));
  grid.tHead!.append(headRow);
  const body = el('tbody');
  body.append(...rows.map(tableRow));
  grid.append(body);
  section.append(grid);
  if (note) section.append(el('p', 'note-line', note));
  return section;
}

function tableRow(row: Row): HTMLTableRowElement {
  const tr = el('tr');
  tr.append(...row.cells.map((c, i) => el(i === 0 ? 'th' : 'td', NUMERIC.test(c) ? undefined : 'text', c)));
  const onClick = row.onClick;
  if (row.target && onClick) {
    tr.dataset.target = row.target;
    tr.tabIndex = 0;
    tr.className = 'clickable';
    tr.addEventListener('click', onClick);
    tr.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onClick();
      }
    });
  }
  return tr;
}

/** The rows of every table on the page as text, cells joined by " | ". */
export function tableTexts(root: HTMLElement): { title: string; rows: string[] }[] {
  return Array.from(root.querySelectorAll<HTMLElement>('section.table-block'), (section) => ({
    title: section.dataset.title ?? '',
    rows: Array.from(section.querySelectorAll('tbody tr'), (tr) => Array.from(tr.children, (c) => c.textContent ?? '').join(' | ')),
  }));
}
