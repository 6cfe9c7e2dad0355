/** An application's answer → its view model, by the reader of its kind; what no reader placed goes to Other fields. */
import type { Rec } from '../../../core/util/guards';
import { Fields } from '../fields';
import { unreadable, unrecognised } from '../readCommon';
import type { ResultImage } from '../model';
import { kindLabel, type AppKind } from '../../../core/runs/run';
import type { AppModel, AppRead } from './model';
import { ENGLISH, type Translate } from '../../../core/util/locale';
import { readHea, readHeterostructure, readReaction, readVqe } from './readBuild';
import { readPxrd, readPxrdMatch } from './readDiffraction';
import { readOptimade, readPredict, readSearch } from './readMaterials';

type Reader = (f: Fields, request: Rec, t: Translate) => AppRead;

const READERS: Record<AppKind, Reader> = {
  search: readSearch,
  predict: readPredict,
  pxrd: readPxrd,
  pxrdMatch: readPxrdMatch,
  optimade: readOptimade,
  heterostructure: readHeterostructure,
  vqe: readVqe,
  reaction: readReaction,
  hea: readHea,
};

const EMPTY: AppRead = { headline: '', facts: [], tables: [], plots: [] };

export function readAppRecord(
  kind: AppKind,
  rec: Rec,
  images: ResultImage[],
  request: Rec,
  takeImages: (f: Fields) => void,
  t: Translate = ENGLISH.t,
): AppModel {
  const warnings: string[] = [];
  const f = new Fields(rec, warnings, '', t);
  try {
    takeImages(f);
    const method = f.text('method', 'model_type', 'algorithm');
    const read = READERS[kind](f, request, t);
    const extra = f.extra;
    if (Object.keys(rec).length > 0 && Object.keys(extra).length === Object.keys(rec).length && images.length === 0) {
      warnings.unshift(unrecognised(kind, t));
    }
    return { kind, ...read, ...(method ? { method } : {}), extra, images, warnings };
  } catch (error) {
    // A reader's own mistake must not cost the user the answer.
    return {
      kind,
      ...EMPTY,
      headline: kindLabel(kind, t),
      extra: rec,
      images,
      warnings: [unreadable(error, t)],
    };
  }
}
