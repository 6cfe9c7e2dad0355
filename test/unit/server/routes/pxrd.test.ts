/**
 * Powder diffraction in the reference server: Miller indices from each reflection's own family (rutile
 * against its textbook pattern), and matching that works on measured-like scans (background, noise,
 * a zero shift), not only on clean peak lists.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findPeaks, matchPeaks, scanBackground, type XyPoint } from '../../../../src/core/diffraction/peaks';
import { findMaterial, MATERIALS } from '../../../../src/server/materials';
import { errorsOf, parseDiffraction } from '../../../../src/core/diffraction/parse';
import { DIFFRACTION_FORMAT } from '../../../../src/core/structures/formats';
import { seededRandom } from '../../../../src/server/physics/rng';
import { MALFORMED_DIFFRACTION } from '../../../support/diffractionCases';
import { MAX_MATCH_POINTS, powderPattern, type Peak } from '../../../../src/server/routes/pxrd';
import { referenceServer } from '../../../support/serverHarness';
import { cpuMs } from '../../../support/linearity';

const { post } = referenceServer('pxrd-test-key');

const pattern = (jid: string): Peak[] => powderPattern(findMaterial(jid)!.structure!);

test('rutile TiO2: each peak labelled with its own family (110 at 27.4°, 101 at 36.1°, 200, 111, 211, 220)', () => {
  const peaks = pattern('JVASP-104');
  const at = (angle: number) => peaks.filter((p) => Math.abs(p.two_theta - angle) < 0.15).map((p) => p.hkl.join(''));
  // Rutile with Cu Kα (ICDD 21-1276): 27.45 (110), 36.09 (101), 39.19 (200), 41.25 (111), 54.32 (211), 56.64 (220).
  // pymatgen 2023's XRDCalculator on this cell (a = 4.594, c = 2.959 Å, u = 0.305) labels the same families:
  // 27.46 (1,1,0), 36.11 (1,0,1), 39.22 (2,0,0), 41.27 (1,1,1), 54.36 (2,1,1), 56.67 (2,2,0) (its λ is the Kα1/Kα2 mean).
  assert.deepEqual(at(27.44), ['110']);
  assert.deepEqual(at(36.08), ['101']);
  assert.deepEqual(at(39.19), ['200']);
  assert.deepEqual(at(41.24), ['111']);
  assert.deepEqual(at(54.32), ['211']);
  assert.deepEqual(at(56.62), ['220']);
  const strongest = peaks.reduce((a, b) => (b.intensity > a.intensity ? b : a));
  assert.equal(strongest.hkl.join(''), '110', "the 110 line is rutile's strongest");
});

/** A scan as a diffractometer records it: Gaussian peaks, a curved background, counting noise, a zero shift. */
function scan(peaks: readonly Peak[], seed: number, shift = 0): XyPoint[] {
  const random = seededRandom(seed);
  const points: XyPoint[] = [];
  for (let a = 10; a <= 90.0001; a += 0.02) {
    let y = 120 + 400 * Math.exp(-(a - 10) / 12) + (0.5 * (a - 50) ** 2) / 10;
    for (const p of peaks) y += 10 * p.intensity * Math.exp(-((a - p.two_theta - shift) ** 2) / (2 * 0.07 ** 2));
    const noisy = y + Math.sqrt(y) * (random() + random() + random() - 1.5) * 2;
    points.push({ two_theta: Math.round(a * 100) / 100, intensity: Math.max(0, Math.round(noisy)) });
  }
  return points;
}

function ranking(measured: XyPoint[]): { jid: string; formula: string; score: number }[] {
  const found = findPeaks(measured);
  return MATERIALS.filter((m) => m.structure)
    .map((m) => ({ jid: m.jid, formula: m.formula, score: matchPeaks(powderPattern(m.structure!), found).score }))
    .sort((a, b) => b.score - a.score);
}

test('a noisy scan on a background is matched to the right material first, with a clear margin (NaCl, Si, rutile)', () => {
  for (const [jid, formula] of [
    ['JVASP-23862', 'NaCl'],
    ['JVASP-1002', 'Si'],
    ['JVASP-104', 'TiO2'],
  ] as const) {
    const ranked = ranking(scan(pattern(jid), 11));
    assert.equal(ranked[0]!.formula, formula, JSON.stringify(ranked.slice(0, 3)));
    assert.ok(ranked[0]!.score - ranked[1]!.score > 0.15, `${formula}: ${JSON.stringify(ranked.slice(0, 3))}`);
  }
});

test('a zero shift of 0.15° still matches; the peaks found sit where the pattern has them', () => {
  const si = pattern('JVASP-1002');
  const ranked = ranking(scan(si, 5, 0.15));
  assert.equal(ranked[0]!.formula, 'Si', JSON.stringify(ranked.slice(0, 3)));
  const found = findPeaks(scan(si, 5));
  for (const p of si.filter((x) => x.intensity > 10)) {
    assert.ok(
      found.some((f) => Math.abs(f.two_theta - p.two_theta) < 0.03),
      `a peak found at ${p.two_theta}°`,
    );
  }
  assert.ok(found.length < 3 * si.length, `no forest of noise peaks: ${found.length}`);
});

test('SNIP follows the background under the peaks and leaves them standing', () => {
  const points = scan(pattern('JVASP-23862'), 3);
  const smoothed = points.map((_, i) => {
    const window = points.slice(Math.max(0, i - 2), i + 3);
    return window.reduce((sum, p) => sum + p.intensity, 0) / window.length;
  });
  const background = scanBackground(smoothed, 0.02);
  const at = (angle: number) => points.findIndex((p) => Math.abs(p.two_theta - angle) < 0.011);
  const flat = at(20);
  const truth = 120 + 400 * Math.exp(-(20 - 10) / 12) + (0.5 * (20 - 50) ** 2) / 10;
  assert.ok(Math.abs(background[flat]! - truth) < 0.08 * truth, `on the background away from peaks: ${background[flat]} vs ${truth}`);
  const top = at(31.7);
  assert.ok(points[top]!.intensity - background[top]! > 500, 'the strongest NaCl peak stands above it');
});

test('/pxrd/match on a measured-like scan names NaCl, and says how it matched', async () => {
  const data = scan(pattern('JVASP-23862'), 17)
    .map((p) => `${p.two_theta} ${p.intensity}`)
    .join('\n');
  const answer = await post('/pxrd/match', { xrd_data: data });
  assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
  assert.equal(answer.body.matches[0].formula, 'NaCl');
  assert.match(answer.body.method, /SNIP \(Ryan et al/);
});

test('/pxrd/match refuses malformed data as the editor does: a 400 quoting its first error, with its line', async () => {
  for (const { name, text, errorLines } of MALFORMED_DIFFRACTION) {
    const errors = errorsOf(parseDiffraction(text));
    const answer = await post('/pxrd/match', { xrd_data: text });
    assert.equal(answer.status, 400, name);
    const count = errors.length === 1 ? 'an error' : `${errors.length} errors`;
    assert.equal(answer.body.detail, `Field "xrd_data" has ${count}: ${errors[0]!.message}.`, name);
    if (!/^No data/.test(errors[0]!.message)) assert.match(answer.body.detail, new RegExp(`: Line ${errorLines[0]}: `), name);
  }
});

test('a line the editor marks as an error in a .xy file is a 400 from /pxrd/match with the message the editor shows', async () => {
  const good = '28.44 100\n47.30 55\n56.12 30';
  for (const line of [',', '47.30', '28.44 abc', 'NaN 3', '190 5', '28.44 -1', 'angle intensity']) {
    const text = `${good}\n${line}\n`;
    // What the live problems of an open diffraction document show (features/structures/diagnostics.ts reads this entry).
    const shown = DIFFRACTION_FORMAT.diagnostics(DIFFRACTION_FORMAT.parse(text)).filter((d) => d.severity === 'error');
    assert.equal(shown.length, 1, `the editor marks "${line}" as an error`);
    assert.equal(shown[0]!.range.line, 3, line);
    const answer = await post('/pxrd/match', { xrd_data: text });
    assert.equal(answer.status, 400, line);
    assert.equal(answer.body.detail, `Field "xrd_data" has an error: ${shown[0]!.message}.`, line);
  }
});

test('/pxrd/match: a line of only "," names that line; more points than it matches is a 400 that says what to do', async () => {
  const comma = await post('/pxrd/match', { xrd_data: '28.44 100\n47.30 55\n,\n56.12 30' });
  assert.equal(comma.status, 400);
  assert.match(comma.body.detail, /Line 3: expected two numbers, the angle 2θ and the intensity \(found only separators\)/);
  const many = Array.from({ length: MAX_MATCH_POINTS + 1 }, (_, i) => `${(10 + i * 0.004).toFixed(3)} 100`).join('\n');
  const tooMany = await post('/pxrd/match', { xrd_data: many });
  assert.equal(tooMany.status, 400);
  assert.equal(
    tooMany.body.detail,
    `Field "xrd_data" has ${MAX_MATCH_POINTS + 1} points; the reference server matches at most ${MAX_MATCH_POINTS}: send a coarser scan or its peaks.`,
  );
});

test('findPeaks: a scan of 20,000 points over 0.2° costs what a real scan does (its windows have a floor in degrees)', async () => {
  const points = Array.from({ length: 20_000 }, (_, i) => ({ two_theta: 30 + i * 1e-5, intensity: 100 + 50 * Math.sin(i / 40) }));
  const ms = await cpuMs(() => findPeaks(points));
  assert.ok(ms < 5000, `${ms.toFixed(0)} ms (it took minutes when the windows were counted at the scan's own step)`);
});
