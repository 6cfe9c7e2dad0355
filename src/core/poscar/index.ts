/** The POSCAR core: parse, summarise and write VASP structure files. Pure: no `vscode`. */
export { parsePoscar, CONTACT_DISTANCE } from './parse';
export { toPoscarText } from './write';
export {
  closeContacts,
  composition,
  cartToFrac,
  density,
  determinant,
  formula,
  fracToCart,
  latticeParameters,
  reducedFormula,
  summarize,
  volume,
  type Contact,
} from './structure';
export { AVOGADRO_CM3_PER_A3, element, ELEMENTS, type Element } from './elements';
export type {
  LatticeParameters,
  LineSpan,
  Mat3,
  ParseResult,
  Poscar,
  PoscarDiagnostic,
  PoscarLines,
  ScaleKind,
  Severity,
  Site,
  SourceRange,
  StructureSummary,
  Vec3,
} from './types';
