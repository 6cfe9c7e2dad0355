/** POSCAR texts shared by the POSCAR tests (and a generator the benchmark may use). */

/** Rock salt, conventional cell, a = 5.64 Å: lines 1-5 header, 6 names, 7 counts, 8 Direct, 9-16 sites. */
export const NACL = `NaCl rock salt
5.64
1 0 0
0 1 0
0 0 1
Na Cl
4 4
Direct
0 0 0
0 0.5 0.5
0.5 0 0.5
0.5 0.5 0
0.5 0 0
0 0.5 0
0 0 0.5
0.5 0.5 0.5
`;

/** The text with line `n` (1-based) replaced; `undefined` deletes it. */
export function withLine(text: string, n: number, content: string | undefined): string {
  const lines = text.split('\n');
  lines.splice(n - 1, 1, ...(content === undefined ? [] : [content]));
  return lines.join('\n');
}

/**
 * Atoms on a slightly jittered grid, so no two are closer than about 0.8 × spacing, in species
 * groups of equal size: for size and speed tests.
 */
export function gridPoscar(dims: [number, number, number], spacing = 2.5, species = ['Na', 'Cl']): string {
  const [nx, ny, nz] = dims;
  const total = nx * ny * nz;
  const counts = species.map((_, g) => Math.floor((total * (g + 1)) / species.length) - Math.floor((total * g) / species.length));
  const lattice = dims.map((n, k) => [0, 1, 2].map((j) => (j === k ? n * spacing : 0).toFixed(10)).join(' '));
  const lines = [`generated ${total}-atom grid`, '1.0', ...lattice, species.join(' '), counts.join(' '), 'Direct'];
  // A fixed pseudo-random jitter of up to ±5 % of the spacing: the same text on every run.
  const jitter = (i: number, k: number): number => 0.1 * (Math.abs(Math.sin(i * 12.9898 + k * 78.233) * 43758.5453) % 1) - 0.05;
  for (let i = 0; i < total; i++) {
    const cell = [Math.floor(i / (ny * nz)), Math.floor(i / nz) % ny, i % nz];
    lines.push(cell.map((c, k) => ((c + 0.5 + jitter(i, k)) / dims[k]!).toFixed(12)).join(' '));
  }
  return `${lines.join('\n')}\n`;
}
