/**
 * The structure page's test driver (test builds only: created behind TEST_HOOKS, so release bundles drop this
 * module): hovers, picks, plays and exports as a user would, and reports what the page shows and paints.
 */
import type { GLViewer } from '3dmol';
import { el, themeKind } from '../bridge';
import type { Scene } from '../../structure/scene';
import type { Vec3 } from '../../../core/poscar/types';
import type { FromStructurePage, ShowMessage, StructureTestMessage } from '../../structure/protocol';

/** The page's elements a report reads, and the Export PNG button it clicks. */
export interface StructureElements {
  readonly title: HTMLElement;
  readonly summary: HTMLElement;
  readonly note: HTMLElement;
  readonly legendBox: HTMLElement;
  readonly measureText: HTMLElement;
  readonly copyButton: HTMLButtonElement;
  readonly caption: HTMLElement;
  readonly exportButton: HTMLButtonElement;
}

/** What the page is in now. */
export interface StructureState {
  current: ShowMessage | undefined;
  scene: Scene | undefined;
  repeat: Vec3;
  hoverText: string;
  renderMs: number;
  renderer: string;
  frameIndex: number;
  frames: number;
  playing: boolean;
}

/** What the driver reaches of the page: its viewer and elements, its state, and what a user's hand does. */
export interface StructurePage {
  readonly viewer: GLViewer;
  readonly elements: StructureElements;
  state(): StructureState;
  hover(index: number | undefined): void;
  pick(index: number | undefined): void;
  setRepeat(repeat: Vec3): void;
  play(): void;
  pause(): void;
  showFrame(index: number): void;
}

export function structureTestDriver(
  page: StructurePage,
  post: (message: FromStructurePage) => void,
): (message: StructureTestMessage) => Promise<void> {
  return async (message) => {
    act(page, message);
    post(await report(page, message.id, message.paint === true));
  };
}

function act(page: StructurePage, message: StructureTestMessage): void {
  const { scene } = page.state();
  if (message.action === 'hover') page.hover(message.atom);
  // pick names a site (as the file numbers them), and picks its first drawn image, as a click on it would.
  if (message.action === 'pick') page.pick(message.atom === undefined || !scene ? undefined : scene.sites.indexOf(message.atom));
  if (message.action === 'setRepeat' && message.repeat) page.setRepeat(message.repeat);
  if (message.action === 'exportPng') page.elements.exportButton.click();
  if (message.action === 'play') page.play();
  if (message.action === 'pause') page.pause();
  if (message.action === 'setFrame' && message.frame !== undefined) {
    page.pause();
    page.showFrame(message.frame);
  }
}

async function report({ viewer, elements, state }: StructurePage, request: number, paint: boolean): Promise<FromStructurePage> {
  const { title, summary, note, legendBox, measureText, copyButton, caption } = elements;
  const model = viewer.getModel();
  const atoms = model ? (model.selectedAtoms({}) as { bonds?: number[] }[]) : [];
  const bonds = atoms.reduce((n, a) => n + (a.bonds?.length ?? 0), 0) / 2;
  const now = state();
  return {
    type: 'rendered',
    seq: now.current?.seq ?? -1,
    request,
    atoms: atoms.length,
    bonds,
    repeat: now.scene?.repeat ?? now.repeat,
    legend: Array.from(legendBox.querySelectorAll('li:not(.symmetry)'), (li) => li.textContent ?? '').join(' '),
    symmetry: legendBox.querySelector('.symmetry')?.textContent ?? '',
    note: note.hidden ? '' : (note.textContent ?? ''),
    title: title.textContent ?? '',
    summary: summary.textContent ?? '',
    hover: now.hoverText,
    measurement: copyButton.disabled ? '' : (measureText.textContent ?? ''),
    theme: themeKind(),
    renderMs: now.renderMs,
    renderer: now.renderer,
    antialias: antialiased(viewer),
    painted: paint ? await painted(viewer) : -1,
    frame: now.frameIndex,
    frames: now.frames,
    caption: caption.textContent ?? '',
    playing: now.playing,
    firstAtom: now.scene ? [...now.scene.positions.subarray(0, 3)] : [],
  };
}

/** Whether the viewer's own WebGL context multisamples (what it got, not what it asked for). */
function antialiased(viewer: GLViewer): boolean {
  const canvas = viewer.getCanvas();
  const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
  return gl?.getContextAttributes()?.antialias === true;
}

/** Share of pixels that differ from the background in a PNG of the canvas. */
async function painted(viewer: GLViewer): Promise<number> {
  const image = new Image();
  image.src = viewer.pngURI();
  await image.decode();
  const canvas = el('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d')!;
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const [r0, g0, b0] = [data[0]!, data[1]!, data[2]!];
  let differ = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i]! - r0) + Math.abs(data[i + 1]! - g0) + Math.abs(data[i + 2]! - b0) > 30) differ++;
  }
  return differ / (data.length / 4);
}
