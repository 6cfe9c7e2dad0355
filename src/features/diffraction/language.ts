/**
 * Diffraction-data files in the editor: the document's one parse (its registration's,
 * core/structures/formats.ts) for the Powder Diffraction Match command. Its live problems come with
 * every format's (features/structures/diagnostics.ts).
 */
import type * as vscode from 'vscode';
import { DIFFRACTION_FORMAT } from '../../core/structures/formats';
import { documentParser } from '../../platform/formatDocuments';
import type { DiffractionData } from '../../core/diffraction/parse';

export const DIFFRACTION_LANGUAGE = 'diffraction';

/** One parse per document version. */
export const parsedDiffraction: (document: vscode.TextDocument) => DiffractionData = documentParser(DIFFRACTION_FORMAT);
