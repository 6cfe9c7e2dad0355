/**
 * Malformed diffraction data and the lines (1-based) of its errors, as the editor's diagnostics give them:
 * test/unit/core/diffraction/parse.test.ts checks the parser against them, test/unit/server/routes/pxrd.test.ts that /pxrd/match refuses each the same way.
 */
export interface MalformedDiffraction {
  name: string;
  text: string;
  /** Lines of the errors, in order; "no data" counts as line 1. */
  errorLines: number[];
}

export const MALFORMED_DIFFRACTION: readonly MalformedDiffraction[] = [
  { name: 'a line of only a comma', text: '28.44 100\n,\n47.30 55\n', errorLines: [2] },
  { name: 'a line of only separators', text: '28.44 100\n47.30 55\n , ,\t\n', errorLines: [3] },
  { name: 'one value', text: '28.44 100\n47.30\n', errorLines: [2] },
  { name: 'three values, nothing else (no data, too)', text: '28.44 100 7\n', errorLines: [1, 1] },
  { name: 'a word for the intensity', text: '28.44 abc\n10 1\n', errorLines: [1] },
  { name: 'NaN', text: '28.44 100\nNaN 3\n', errorLines: [2] },
  { name: 'an angle past 180', text: '28.44 100\n190 5\n', errorLines: [2] },
  { name: 'a negative intensity', text: '28.44 -1\n', errorLines: [1] },
  { name: 'words after the data', text: '10 1\nangle intensity\n', errorLines: [2] },
  { name: 'only comments', text: '# Cu Ka\n! nothing measured\n', errorLines: [1] },
  { name: 'several errors, CRLF line ends', text: '10 1\r\n,\r\n20 x\r\n30 3\r\n', errorLines: [2, 3] },
  { name: 'lone CR line ends', text: '10 1\r20 2\r,\r', errorLines: [3] },
];
