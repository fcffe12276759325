// A highlight.js language module (see lowlight.d.ts for why it is typed here).
import type { LanguageFn } from './lowlight';

declare const grammar: LanguageFn;
export default grammar;
