// The part of lowlight the compiler uses, typed here for the Node source root: lowlight's own types
// import highlight.js's, which pull in the DOM library (`/// <reference lib="dom" />`), and with it
// `document` and `window` into every Node file. tsconfig.node.json maps the imports here.
import type { Root } from 'hast';

/** A highlight.js grammar, as its language module exports it. */
export type LanguageFn = (hljs: unknown) => unknown;

export interface Lowlight {
  highlight(language: string, value: string): Root;
  registered(language: string): boolean;
}

export declare const common: Record<string, LanguageFn>;
export declare function createLowlight(grammars?: Record<string, LanguageFn>): Lowlight;
