/**
 * docs/bench.md, written by `npm run bench` rather than copied by hand: one block per run, newest first, each with
 * the sections it ran, the command, the machine and the date, and what the run printed. A run drops every older
 * block whose sections it measured again in full; an older block it measured only in part stays, and says which of
 * its sections a newer block above has re-measured. Pure: bench.ts reads and writes the file.
 */

export interface BenchRun {
  /** The `--only` sections the run measured (all of them for a full run). */
  sections: readonly string[];
  /** `## …` heading text after the sections: the date, or a note such as "recorded earlier". */
  when: string;
  /** Lines above the output: the command, the machine, anything a reader must know to compare. */
  about: readonly string[];
  /** What the run printed. */
  output: readonly string[];
}

interface Block {
  sections: string[];
  /** The block's text between its markers, without the re-measured note (which is recomputed). */
  body: string;
}

const OPEN = /^<!-- bench-run sections="([\w,-]*)" -->$/;
const CLOSE = '<!-- /bench-run -->';
const NOTE = '> Re-measured by a newer run above: ';
const FENCE = '```';

export const INTRO = [
  '# Benchmark tables',
  '',
  'Written by `npm run bench` (`test/bench/bench.ts`, `test/bench/benchDoc.ts`); do not edit by hand. Each block is',
  'one run, newest first: the sections it ran (`--only=…`, or all of them), the command, the machine and the date,',
  'then what the run printed. A run replaces every older block whose sections it measured again; an older block it',
  're-measured only in part stays and says which of its sections are newer above. `--no-doc` leaves this file alone.',
  'What the numbers mean, the goals and how the engine meets them: [speed](speed.md).',
];

/** The blocks of a bench.md, in file order; text outside the markers (the intro) is not kept. */
export function parseBlocks(doc: string): Block[] {
  const blocks: Block[] = [];
  let current: { sections: string[]; lines: string[] } | undefined;
  let afterNote = false;
  for (const line of doc.split('\n')) {
    const open = OPEN.exec(line);
    if (open) current = { sections: open[1]!.split(',').filter(Boolean), lines: [] };
    else if (line === CLOSE && current) {
      blocks.push({ sections: current.sections, body: current.lines.join('\n') });
      current = undefined;
    } else if (current && !line.startsWith(NOTE) && !(afterNote && line === '')) current.lines.push(line);
    afterNote = line.startsWith(NOTE);
  }
  return blocks;
}

export function renderRun(run: BenchRun): Block {
  const fence = run.output.some((line) => line.startsWith(FENCE)) ? '~~~~' : FENCE;
  const body = [`## ${run.sections.join(', ')}: ${run.when}`, '', ...run.about, '', `${fence}text`, ...run.output, fence];
  return { sections: [...run.sections], body: body.join('\n') };
}

/** The blocks newest first, those fully re-measured by newer ones dropped, the rest noting what is newer. */
function render(blocks: readonly Block[]): string {
  const seen = new Set<string>();
  const out = [...INTRO, ''];
  for (const block of blocks) {
    const newer = block.sections.filter((s) => seen.has(s));
    if (block.sections.length && newer.length === block.sections.length) continue;
    block.sections.forEach((s) => seen.add(s));
    const lines = block.body.split('\n');
    const note = newer.length ? [NOTE + newer.join(', '), ''] : [];
    out.push(`<!-- bench-run sections="${block.sections.join(',')}" -->`, lines[0]!, '', ...note, ...lines.slice(2), CLOSE, '');
  }
  return out.join('\n');
}

/** bench.md with `run` added on top of what `doc` (the file as it was, or empty) holds. */
export function addRun(doc: string, run: BenchRun): string {
  return render([renderRun(run), ...parseBlocks(doc)]);
}

/** The file as the bench would write it back: its blocks in order, the notes recomputed. */
export function normalize(doc: string): string {
  return render(parseBlocks(doc));
}

/** bench.md from runs given oldest first (the seed of recorded runs, and the tests). */
export function fromRuns(runs: readonly BenchRun[]): string {
  return runs.reduce((doc, run) => addRun(doc, run), '');
}
