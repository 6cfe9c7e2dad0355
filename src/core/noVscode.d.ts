/**
 * What `import … from 'vscode'` finds under the core's, the server's and the pages' configs ("paths"): a module
 * with nothing in it, so any use of the editor's API there is a compile error. (Without the mapping TypeScript
 * would find @types/vscode whatever "types" says.)
 */
export {};
