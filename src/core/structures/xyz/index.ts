/** XYZ and extended XYZ: readXyz (plain and extended, many frames) and writeExtxyz. Pure: no `vscode`. */
export { readXyz } from './read';
export { writeExtxyz } from './write';
export { KBAR_PER_EV_A3 } from './frameSpec';
