/**
 * The structure view's page: the cell in 3D with 3Dmol.js (WebGL), atoms in Jmol colours, the unit
 * cell, bonds, a supercell repeat, hover labels, a legend, PNG export. Every piece of document text
 * reaches the DOM through textContent, and 3Dmol draws labels on the canvas.
 */
import { createViewer, elementColors, setBondLength, type GLViewer } from '3dmol';
import { ELEMENTS } from '../../../core/poscar/elements';
import { connect, cssVar, el, onThemeChange, themeKind, t } from '../bridge';
import { measurement } from '../../structure/measure';
import { isSoftwareRenderer, webglRenderer } from './renderer';
import { buildScene, legend, toXyz, type Scene, type SceneInput } from '../../structure/scene';
import {
  isToStructurePage,
  MAX_DRAWN_ATOMS,
  sanitizeStructureOptions,
  type FromStructurePage,
  type ShowMessage,
  type StructureData,
  type StructureOptions,
  type ToStructurePage,
} from '../../structure/protocol';
import { structureTestDriver } from './testDriver';

const bridge = connect<ToStructurePage, FromStructurePage>(isToStructurePage, (message) => {
  if (message.type === 'show') show(message);
  else if (message.type === 'frameSymmetry') frameSymmetry(message.frame, message.text);
  else void driver?.(message);
});

let options: StructureOptions = sanitizeStructureOptions((bridge.persisted as { options?: unknown } | undefined)?.options);
let current: ShowMessage | undefined;
let scene: Scene | undefined;
let hoverText = '';
/** Drawn atoms picked by clicking (at most three): two give a distance, three an angle. */
let picks: number[] = [];
let renderMs = 0;
/** The trajectory frame shown, and the timer that advances it while playing. */
let frameIndex = 0;
let timer: ReturnType<typeof setInterval> | undefined;
/** The space group of each trajectory frame the extension has searched, by the frame's index in its file. */
const frameGroups = new Map<number, string>();

// ---- page ---------------------------------------------------------------------------------------

const app = document.getElementById('app')!;
const header = el('header');
const title = el('h1', 'title');
const summary = el('div', 'summary');
header.append(title, summary);

const toolbar = el('div', 'toolbar');
const repeatSelects = (['a', 'b', 'c'] as const).map((axis, k) => {
  const select = el('select');
  select.title = t('Copies along {0}', axis);
  select.setAttribute('aria-label', t('Copies along {0}', axis));
  for (const n of [1, 2, 3]) select.append(new Option(String(n), String(n)));
  select.addEventListener('change', () => {
    const repeat: [number, number, number] = [...options.repeat];
    repeat[k] = Number(select.value);
    setOptions({ ...options, repeat });
  });
  const label = el('label', 'repeat', `${axis} ×`);
  label.append(select);
  return { label, select };
});
const bondsBox = checkbox(t('Bonds'), () => setOptions({ ...options, bonds: bondsBox.input.checked }));
const cellBox = checkbox(t('Cell'), () => setOptions({ ...options, cell: cellBox.input.checked }));
const resetButton = el('button', undefined, t('Reset view'));
resetButton.addEventListener('click', () => {
  frame();
  viewer.render();
});
const exportButton = el('button', undefined, t('Export PNG…'));
exportButton.addEventListener('click', () => bridge.post({ type: 'exportPng', dataUrl: viewer.pngURI() }));
const supercellLabel = el('span', 'label', t('Supercell'));
toolbar.append(supercellLabel, ...repeatSelects.map((r) => r.label), bondsBox.label, cellBox.label, resetButton, exportButton);

// ---- trajectory player ----
const player = el('div', 'toolbar player');
player.hidden = true;
const playButton = el('button', undefined, t('Play'));
playButton.addEventListener('click', () => (timer ? pause() : play()));
const stepButton = (text: string, label: string, by: number): HTMLButtonElement => {
  const button = el('button', 'step', text);
  button.title = label;
  button.setAttribute('aria-label', label);
  button.addEventListener('click', () => {
    pause();
    showFrame(frameIndex + by);
  });
  return button;
};
const backButton = stepButton('◀', t('Previous frame'), -1);
const forwardButton = stepButton('▶', t('Next frame'), 1);
const slider = el('input');
slider.type = 'range';
slider.min = '0';
slider.setAttribute('aria-label', t('Frame'));
slider.addEventListener('input', () => {
  pause();
  showFrame(Number(slider.value));
});
const speed = el('select');
speed.setAttribute('aria-label', t('Frames per second'));
for (const fps of [2, 5, 10, 20]) speed.append(new Option(`${fps} frames/s`, String(fps), fps === 5, fps === 5));
speed.addEventListener('change', () => {
  if (timer) play();
});
const loopBox = checkbox(t('Loop'), () => undefined);
const caption = el('span', 'caption');
caption.setAttribute('aria-live', 'off');
player.append(playButton, backButton, forwardButton, slider, caption, speed, loopBox.label);

const note = el('div', 'note');
note.setAttribute('role', 'status');
const stage = el('div', 'stage');
const hoverLine = el('div', 'hover');
hoverLine.setAttribute('aria-live', 'polite');
const legendBox = el('ul', 'legend');
legendBox.setAttribute('aria-label', t('Elements'));
const measureBar = el('div', 'toolbar measure');
const measureText = el('span', 'measurement', t('Click two atoms for their distance, three for an angle (periodic images counted).'));
measureText.setAttribute('aria-live', 'polite');
const copyButton = el('button', undefined, t('Copy'));
copyButton.addEventListener('click', () => bridge.post({ type: 'copy', text: measureText.textContent ?? '' }));
const clearButton = el('button', undefined, t('Clear'));
clearButton.addEventListener('click', () => pick(undefined));
measureBar.append(measureText, copyButton, clearButton);
app.append(header, toolbar, player, note, stage, measureBar, legendBox, hoverLine);

// Bonds: 3Dmol joins atoms closer than r_A + r_B + 0.25 Å; with Cordero's covalent radii × 1.1 that
// also catches ionic neighbours (Na–Cl 2.82 Å) that its own table misses, and no second neighbours.
for (const e of ELEMENTS) if (e.covalentRadius) setBondLength(e.symbol, 1.1 * e.covalentRadius);

const renderer = webglRenderer();
const viewer: GLViewer = createViewer(stage, { backgroundColor: background(), antialias: !isSoftwareRenderer(renderer) });
new ResizeObserver(() => {
  viewer.resize();
  viewer.render();
}).observe(stage);
onThemeChange(() => draw(false));

function checkbox(text: string, onChange: () => void): { label: HTMLLabelElement; input: HTMLInputElement } {
  const input = el('input');
  input.type = 'checkbox';
  input.addEventListener('change', onChange);
  const label = el('label', 'toggle');
  label.append(input, document.createTextNode(` ${text}`));
  return { label, input };
}

function background(): string {
  return cssVar('--vscode-editor-background') || (themeKind() === 'light' ? '#ffffff' : '#1e1e1e');
}

function syncControls(): void {
  repeatSelects.forEach((r, k) => (r.select.value = String(options.repeat[k])));
  bondsBox.input.checked = options.bonds;
  cellBox.input.checked = options.cell;
}

function setOptions(next: StructureOptions): void {
  const rebuild = next.repeat.some((n, k) => n !== options.repeat[k]);
  options = next;
  persist();
  bridge.post({ type: 'options', options });
  syncControls();
  draw(rebuild);
}

function persist(): void {
  bridge.persist({ options, uri: current?.uri });
}

// ---- drawing ------------------------------------------------------------------------------------

function show(message: ShowMessage): void {
  const started = performance.now();
  const changed = message.structure !== current?.structure || !current;
  const previous = current?.uri;
  current = message;
  options = sanitizeStructureOptions(message.options);
  persist();
  syncControls();
  title.textContent = message.title;
  summary.textContent = message.structure?.summary ?? '';
  for (const hide of [supercellLabel, cellBox.label, ...repeatSelects.map((r) => r.label)]) hide.hidden = !!message.structure?.molecule;
  if (changed) frameGroups.clear(); // the extension sends the frame shown's again
  if (changed) resetPlayer(message.structure, previous === message.uri);
  draw(changed);
  renderMs = performance.now() - started;
}

function framesOf(structure: StructureData | null | undefined): number {
  return structure?.frames?.length ?? 0;
}

/**
 * A new trajectory starts playing from its first frame, once through; an edited document's stays on the
 * frame shown.
 */
function resetPlayer(structure: StructureData | null, sameView: boolean): void {
  pause();
  const n = framesOf(structure);
  if (!sameView || frameIndex >= n) frameIndex = 0;
  player.hidden = n < 2;
  slider.max = String(Math.max(0, n - 1));
  if (n > 1 && !sameView) play();
}

function play(): void {
  clearInterval(timer);
  const n = framesOf(current?.structure);
  if (n < 2) return;
  if (frameIndex >= n - 1) showFrame(0);
  timer = setInterval(
    () => {
      if (frameIndex < n - 1) showFrame(frameIndex + 1);
      else if (loopBox.input.checked) showFrame(0);
      else pause();
    },
    1000 / Number(speed.value),
  );
  playButton.textContent = t('Pause');
}

function pause(): void {
  clearInterval(timer);
  timer = undefined;
  playButton.textContent = t('Play');
}

function showFrame(index: number): void {
  frameIndex = Math.max(0, Math.min(index, framesOf(current?.structure) - 1));
  draw(true, true);
  const shown = current?.structure?.frames?.[frameIndex];
  if (shown) bridge.post({ type: 'frame', index: shown.source ?? frameIndex });
}

/** A molecule has no cell: one copy, no box drawn. */
const periodic = (): boolean => !current?.structure?.molecule;
const drawnRepeat = (): [number, number, number] => (periodic() ? options.repeat : [1, 1, 1]);

/** What to draw: the structure, or the trajectory frame shown. */
function sceneInput(structure: StructureData): SceneInput {
  const frame = structure.frames?.[frameIndex];
  slider.value = String(frameIndex);
  caption.textContent = frame ? t('{0} ({1} of {2})', frame.caption, frameIndex + 1, structure.frames!.length) : '';
  return frame ? { lattice: frame.lattice ?? structure.lattice, elements: structure.elements, frac: frame.frac } : structure;
}

/** `keepView`: a new frame of a trajectory is drawn from where the user is looking. */
function draw(rebuild: boolean, keepView = false): void {
  const structure = current?.structure;
  viewer.setBackgroundColor(background(), 1);
  if (!structure) {
    viewer.clear();
    scene = undefined;
    setNote(current?.note ?? '');
    legendBox.replaceChildren();
    viewer.render();
    return;
  }
  if (rebuild || !scene) {
    scene = buildScene(sceneInput(structure), drawnRepeat(), MAX_DRAWN_ATOMS);
    const view = viewer.getView();
    viewer.clear();
    const a = scene.cell;
    const latticeText = [...a[0], ...a[1], ...a[2]].map((x) => x.toFixed(6)).join(' ');
    const model = viewer.addModel(toXyz(scene, `Lattice="${latticeText}"`), 'xyz');
    model.setHoverable(
      {},
      true,
      (atom: { index?: number }) => hover(atom.index),
      () => hover(undefined),
    );
    model.setClickable({}, true, (atom: { index?: number }) => pick(atom.index));
    if (!keepView) picks = []; // a new structure or supercell; a trajectory's next frame keeps the atoms picked
    showMeasurement();
    if (keepView) viewer.setView(view);
    else frame();
  }
  style();
  const reduced = scene.repeat.some((n, k) => n !== drawnRepeat()[k]);
  setNote(
    [
      current!.note,
      reduced
        ? t('Showing {0}: more copies would draw over {1} atoms.', scene.repeat.join(' × '), MAX_DRAWN_ATOMS.toLocaleString('en-US'))
        : '',
    ]
      .filter(Boolean)
      .join(' '),
  );
  fillLegend(structure.elements, legendSymmetry(structure));
  viewer.render();
}

/** A trajectory's legend gives the space group of the frame shown, once the extension has searched it. */
function legendSymmetry(structure: StructureData): string | undefined {
  const frame = structure.frames?.[frameIndex];
  return frame ? (frameGroups.get(frame.source ?? frameIndex) ?? symmetrySearching) : structure.symmetry;
}

const symmetrySearching = t('Space group: searching…');

function frameSymmetry(source: number, text: string): void {
  frameGroups.set(source, text);
  const structure = current?.structure;
  const frame = structure?.frames?.[frameIndex];
  if (structure && frame && (frame.source ?? frameIndex) === source) fillLegend(structure.elements, text);
}

/** Fits the cell in view, turned a little off its axes so that its depth shows. */
function frame(): void {
  viewer.setView([0, 0, 0, 0, 0, 0, 0, 1]);
  viewer.zoomTo();
  viewer.rotate(-20, 'y');
  viewer.rotate(15, 'x');
  viewer.zoom(0.9);
}

function style(): void {
  const big = scene!.elements.length > 5000;
  const ball = { colorscheme: 'Jmol', scale: options.bonds ? 0.3 : 0.45 };
  viewer.setStyle({}, options.bonds && !big ? { sphere: ball, stick: { radius: 0.12, colorscheme: 'Jmol' } } : { sphere: ball });
  viewer.removeAllShapes();
  const model = viewer.getModel();
  if (options.cell && periodic() && model) viewer.addUnitCell(model, { box: { color: cssVar('--vscode-editor-foreground') || '#888888' } });
  for (const index of picks) {
    const p = scene!.positions;
    viewer.addSphere({
      center: { x: p[3 * index]!, y: p[3 * index + 1]!, z: p[3 * index + 2]! },
      radius: 0.7,
      color: cssVar('--vscode-focusBorder') || '#0090f1',
      opacity: 0.45,
    });
  }
  labels();
}

/** The cell's axes, a b c at the ends of its vectors from the origin (3Dmol draws them on the canvas). */
function labels(): void {
  viewer.removeAllLabels();
  if (!options.cell || !periodic() || !scene) return;
  const color = cssVar('--vscode-editor-foreground') || '#888888';
  scene.cell.forEach((v, k) => {
    const n = scene!.repeat[k]!;
    viewer.addLabel('abc'[k]!, {
      position: { x: (v[0] / n) * 1.08, y: (v[1] / n) * 1.08, z: (v[2] / n) * 1.08 },
      fontColor: color,
      fontSize: 16,
      backgroundColor: background(),
      backgroundOpacity: 0.75,
      inFront: true,
    });
  });
}

/** Adds a clicked atom to the measurement (a fourth starts over; clicking one again, or undefined, clears). */
function pick(index: number | undefined): void {
  if (index === undefined || picks.includes(index)) picks = [];
  else picks = picks.length >= 3 ? [index] : [...picks, index];
  showMeasurement();
  style();
  viewer.render();
}

function showMeasurement(): void {
  const structure = current?.structure;
  const input = structure && sceneInput(structure);
  const picked =
    !scene || !structure || !input
      ? []
      : picks.map((index) => {
          const site = scene!.sites[index]!;
          return {
            label: structure.labels[site]!,
            frac: [input.frac[3 * site]!, input.frac[3 * site + 1]!, input.frac[3 * site + 2]!] as [number, number, number],
          };
        });
  const text = input ? measurement(input.lattice, picked) : '';
  measureText.textContent =
    text ||
    (picked.length === 1
      ? t('{0}: click a second atom for the distance, a third for the angle.', picked[0]!.label)
      : t('Click two atoms for their distance, three for an angle (periodic images counted).'));
  copyButton.disabled = !text;
  clearButton.disabled = picks.length === 0;
}

function setNote(text: string): void {
  note.textContent = text;
  note.hidden = !text;
}

/** The elements with their counts, then the space group with the tolerance used (or why there is none). */
function fillLegend(elements: readonly string[], symmetry: string | undefined): void {
  const group = el('li', 'symmetry');
  group.textContent = symmetry ?? '';
  legendBox.replaceChildren(
    ...legend(elements).map(({ element, count }) => {
      const item = el('li');
      const swatch = el('span', 'swatch');
      swatch.style.background = colourOf(element);
      item.append(swatch, document.createTextNode(` ${element} ${count}`));
      return item;
    }),
    ...(symmetry ? [group] : []),
  );
}

function colourOf(element: string): string {
  const value = (elementColors.Jmol as Record<string, unknown>)[element];
  return typeof value === 'number' ? `#${value.toString(16).padStart(6, '0')}` : '#ff1493';
}

function hover(index: number | undefined): void {
  labels();
  const structure = current?.structure;
  if (index === undefined || !scene || !structure || index >= scene.sites.length) {
    hoverText = '';
  } else {
    const site = scene.sites[index]!;
    const p = scene.positions;
    hoverText = `${structure.labels[site]}  (${[p[3 * index]!, p[3 * index + 1]!, p[3 * index + 2]!].map((x) => x.toFixed(3)).join(', ')}) Å`;
    viewer.addLabel(structure.labels[site]!, {
      position: { x: p[3 * index]!, y: p[3 * index + 1]!, z: p[3 * index + 2]! },
      backgroundColor: '#000000',
      backgroundOpacity: 0.7,
      fontColor: '#ffffff',
      fontSize: 13,
      inFront: true,
    });
  }
  hoverLine.textContent = hoverText;
  viewer.render();
}

const driver =
  TEST_HOOKS && bridge.testMode
    ? structureTestDriver(
        {
          viewer,
          elements: { title, summary, note, legendBox, measureText, copyButton, caption, exportButton },
          state: () => ({
            current,
            scene,
            repeat: options.repeat,
            hoverText,
            renderMs,
            renderer,
            frameIndex,
            frames: framesOf(current?.structure),
            playing: timer !== undefined,
          }),
          hover,
          pick,
          setRepeat: (repeat) => setOptions({ ...options, repeat }),
          play,
          pause,
          showFrame,
        },
        bridge.post,
      )
    : undefined;

syncControls();
bridge.ready();
