/** The diffraction-data grammar: comments, then the angle and the intensity of each point; anything else stays plain. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lines, loadGrammar, tokenizer } from '../../../support/grammar';

const tokenize = tokenizer(loadGrammar('diffraction.tmLanguage.json', 'source.diffraction'));
const ANGLE = 'constant.numeric.angle.diffraction';
const INTENSITY = 'variable.other.intensity.diffraction';

test('comments, angles and intensities, whatever separates them', async () => {
  assert.deepEqual(await tokenize(lines('# Cu Ka\n28.44 100\n47.3,\t55.5\n1.2D1;3e2\n  ! end')), [
    [['# Cu Ka', 'comment.line.diffraction']],
    [
      ['28.44', ANGLE],
      ['100', INTENSITY],
    ],
    [
      ['47.3', ANGLE],
      [',', ''],
      ['55.5', INTENSITY],
    ],
    [
      ['1.2D1', ANGLE],
      [';', ''],
      ['3e2', INTENSITY],
    ],
    [['! end', 'comment.line.diffraction']],
  ]);
});

test('a line that is not two numbers is not coloured as data', async () => {
  assert.deepEqual(await tokenize(lines('30.0 abc\n31\n2theta intensity')), [[['30.0 abc', '']], [['31', '']], [['2theta intensity', '']]]);
});
