/**
 * The inspector's keyboard: which token a key moves to (arrows along and across rows, Page Up/Down, Home, End),
 * or what else it asks (select in the editor, hide the tooltip). Pure, tested in test/unit/webviews/pages/inspector/rows.test.ts.
 */
import { segmentAt, type TableView } from '../../../core/inspector/segments';
import { rowAt } from './rows';

export interface KeyState {
  /** The active token's segment, or −1. */
  active: number;
  table: TableView;
  rowStarts: readonly number[];
  textLength: number;
  /** Rows in one screen. */
  page: number;
}

export type KeyMove = number | 'select' | 'hide' | undefined;

export function keyMove(key: string, state: KeyState): KeyMove {
  const n = state.table.bounds.length - 1;
  const at = state.active < 0 ? 0 : state.active;
  switch (key) {
    case 'ArrowRight':
      return Math.min(n - 1, at + (state.active < 0 ? 0 : 1));
    case 'ArrowLeft':
      return Math.max(0, at - 1);
    case 'ArrowDown':
      return rowMove(state, at, 1);
    case 'ArrowUp':
      return rowMove(state, at, -1);
    case 'PageDown':
      return rowMove(state, at, state.page);
    case 'PageUp':
      return rowMove(state, at, -state.page);
    case 'Home':
      return 0;
    case 'End':
      return n - 1;
    case 'Enter':
    case ' ':
      return 'select';
    case 'Escape':
      return 'hide';
    default:
      return undefined;
  }
}

/** The segment `delta` rows down (up when negative) from segment `at`, at the same column or the row's end. */
function rowMove({ table, rowStarts, textLength }: KeyState, at: number, delta: number): number {
  const offset = table.bounds[at]!;
  const row = rowAt(rowStarts, offset);
  const target = Math.min(rowStarts.length - 1, Math.max(0, row + delta));
  const column = offset - rowStarts[row]!;
  const end = target + 1 < rowStarts.length ? rowStarts[target + 1]! - 1 : textLength;
  return segmentAt(table, Math.min(rowStarts[target]! + column, Math.max(rowStarts[target]!, end)));
}
