/**
 * docs/physics.md's table of lattice constants, cohesive energies and band gaps is what the built-in service computes
 * today: each row is recomputed (physicsTable.ts) and must appear in docs/physics.md verbatim, so a change to a model that moves a
 * number fails here until the table is updated (`node out/test/support/physicsTable.js` prints it).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { compute, HEADER, MATERIALS, row, TOSI_FUMI } from '../../../support/physicsTable';

const page = fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', '..', 'docs', 'physics.md'), 'utf8');

test('docs/physics.md has the table header', () => {
  for (const line of HEADER) assert.ok(page.includes(line), `docs/physics.md lacks the line\n${line}`);
});

for (const material of MATERIALS) {
  test(`docs/physics.md's row for ${material.name} is what the service computes`, () => {
    const line = row(material, compute(material));
    assert.ok(
      page.includes(`${line}\n`),
      `docs/physics.md lacks the row\n${line}\n(print the table with node out/test/support/physicsTable.js)`,
    );
  });
}

/**
 * Tosi and Fumi fitted a static lattice: their salts sit up to 1.7 % below the room-temperature measurement, about the
 * thermal expansion from 0 K (ionic.test.ts checks every salt is below it by 0.2–1.7 %); other rows may state
 * their model's own distance.
 */
const aTolerance = (m: (typeof MATERIALS)[number]): number => m.aTolerance ?? (m.model === TOSI_FUMI ? 0.017 : 0.01);

test("the rows agree with the measurements they stand beside: a within 1 % (Tosi–Fumi 1.7 %, or the row's stated model distance), Ec within 6 %, gaps within 0.2 eV and of the same character", () => {
  for (const m of MATERIALS) {
    const c = compute(m);
    if (m.model) assert.ok(Math.abs(c.a / m.a - 1) < aTolerance(m), `${m.name}: a = ${c.a} Å against ${m.a}`);
    if (m.model && m.ec) assert.ok(Math.abs(c.ec / m.ec - 1) < 0.07, `${m.name}: Ec = ${c.ec} eV against ${m.ec}`);
    if (m.gap && c.gap) {
      const [value, character] = m.gap.split(', ');
      assert.ok(Math.abs(c.gap.value - Number(value)) < 0.2, `${m.name}: gap ${c.gap.value} eV against ${value}`);
      assert.equal(c.gap.direct ? 'direct' : 'indirect', character, `${m.name}: character`);
    }
  }
});
