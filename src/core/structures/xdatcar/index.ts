/** VASP's XDATCAR: readXdatcar (fixed and variable cell, every configuration). Pure: no `vscode`. */
export { readXdatcar } from './read';
