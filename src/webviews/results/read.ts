/**
 * The tolerant reader: a service answer (JSON, text or bytes, and its headers) → the model of its run
 * kind. It never throws; what it cannot place stays in `extra`, what looks wrong is a warning.
 * Pure: no vscode, no DOM.
 */
import type { ResponseBody } from '../../core/service/response';
import { isRecord, type Rec } from '../../core/util/guards';
import { Fields, toStrings } from './fields';
import { imageFromBytes, imageFromString, toBase64 } from './images';
import type { ResultImage, ResultModel } from './model';
import { atomCount, unreadable, unrecognised, type KindContext, type Read, type ReadContext } from './readCommon';
import { readBands } from './readBands';
import { readMd } from './readMd';
import { readRelax } from './readRelax';
import { readSinglePoint } from './readSinglePoint';
import { readAppRecord } from './apps/read';
import { isAppKind, type RunKind, type StructureKind } from '../../core/runs/run';

/** Bytes that are not an image are kept as base64 up to this size. */
const MAX_KEPT_BYTES = 1_000_000;

type Reader = (f: Fields, context: KindContext, headers: Record<string, string>) => Read<ResultModel>;

const READERS: Record<StructureKind, Reader> = {
  relax: readRelax,
  singlePoint: readSinglePoint,
  md: readMd,
  tightbinding: (f, _context, headers) => readBands(f, headers),
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The answer as a record to read: an answer that is no object is put under "answer". */
function answerRecord(kind: RunKind, body: ResponseBody | undefined, images: ResultImage[]): Rec {
  if (!body) return {};
  if (body.type === 'json') return isRecord(body.value) ? body.value : { answer: body.value };
  if (body.type === 'bytes') {
    const image = imageFromBytes(body.bytes);
    if (image) {
      images.push({ dataUrl: image, source: 'answer' });
      return {};
    }
    const size = `${body.bytes.length.toLocaleString('en-US')} bytes of ${body.contentType || 'unknown type'}`;
    return body.bytes.length <= MAX_KEPT_BYTES
      ? { answer: size, answer_base64: toBase64(body.bytes) }
      : { answer: `${size} (too large to keep)` };
  }
  const text = body.text;
  const json = /^\s*[[{]/.test(text) ? parseJson(text) : undefined;
  if (json !== undefined) return answerRecord(kind, { type: 'json', value: json }, images);
  // The old relax answer: the relaxed POSCAR itself, as text.
  return kind === 'relax' && !imageFromString(text) ? { final_poscar: text } : { answer: text };
}

/** Every top-level field that holds an image (or a list of them) becomes an image. */
function takeImages(rec: Rec, f: Fields, images: ResultImage[]): void {
  for (const [name, value] of Object.entries(rec)) {
    const list = Array.isArray(value) && value.length > 0 && value.length <= 100 ? value : [value];
    const found = list.map((v) => (typeof v === 'string' ? imageFromString(v) : undefined));
    if (!found.every((url): url is string => url !== undefined)) continue;
    images.push(...found.map((dataUrl, i) => ({ dataUrl, source: list.length > 1 ? `${name}[${i}]` : name })));
    f.use(name);
  }
}

type Shared = Pick<ResultModel, 'method' | 'natoms' | 'species'>;

/** What every kind may state: the method, the atoms, the energy unit (only eV is understood). */
function readShared(f: Fields, context: ReadContext): Shared {
  const natoms = f.count('natoms', 'n_atoms', 'num_atoms', 'nat');
  const species = f.read(['species', 'elements', 'symbols'], toStrings, f.t('a list of element symbols'));
  atomCount(f.warnings, context, [
    ['natoms', natoms, f.t('atoms')],
    ['species', species?.length, f.t('names')],
  ]);
  f.read(
    ['energy_unit', 'energy_units'],
    (v) => (typeof v === 'string' && v.trim().toLowerCase() === 'ev' ? v : undefined),
    f.t('"eV" (energies are shown as sent)'),
  );
  return { method: f.text('method', 'model', 'calculator', 'potential'), natoms, species };
}

export function readResult(
  kind: RunKind,
  body: ResponseBody | undefined,
  headers: Record<string, string> = {},
  context: ReadContext = {},
): ResultModel {
  const images: ResultImage[] = [];
  const rec = answerRecord(kind, body, images);
  if (isAppKind(kind)) return readAppRecord(kind, rec, images, context.request ?? {}, (f) => takeImages(rec, f, images), context.t);
  try {
    return readRecord(kind, rec, images, headers, context);
  } catch (error) {
    // A reader's own mistake must not cost the user the answer: all of it goes under Other fields.
    const empty = READERS[kind](new Fields({}, []), {}, {});
    return { ...empty, extra: rec, images, warnings: [unreadable(error, context.t)] } as ResultModel;
  }
}

function readRecord(
  kind: StructureKind,
  rec: Rec,
  images: ResultImage[],
  headers: Record<string, string>,
  context: ReadContext,
): ResultModel {
  const warnings: string[] = [];
  const f = new Fields(rec, warnings, '', context.t);
  takeImages(rec, f, images);
  const shared = readShared(f, context);
  const model = READERS[kind](f, { ...context, natoms: shared.natoms ?? shared.species?.length }, headers);
  const extra = f.extra;
  if (Object.keys(rec).length > 0 && Object.keys(extra).length === Object.keys(rec).length && images.length === 0) {
    warnings.unshift(unrecognised(kind, context.t));
  }
  return { ...model, ...shared, extra, images, warnings } as ResultModel;
}
