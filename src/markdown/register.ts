/**
 * The register of a Portuguese text: where its prose addresses the reader as *tu* or as *você*.
 * Worked out for each text as it is compiled (and kept with it), so the site-wide judgement of
 * I18N004 (check/register.ts) reads facts instead of scanning every text again.
 */

/** How a Portuguese text addresses its reader: the familiar *tu* or the formal *você*. */
export type Register = 'tu' | 'você';

/** One place where a Portuguese text shows its register, and the words that show it. */
export interface RegisterMark {
  register: Register;
  /** The words as written ("Toque", "teu"). */
  words: string;
  /** 0-based offset in the text scanned. */
  offset: number;
}

// Forms that only the register they stand for can have. A 2nd-person form ("estás", "teu") is
// always tu. An imperative counts only where a sentence (or, after ":" or ";", a clause) starts,
// and never with "-se" ("Remova-se o contentor" is impersonal); verbs whose form there can also be
// a noun or a plain statement are left out ("Começa em 1952" and "Troca de táxi" are statements,
// "Fixe!" and "Passe" other words), or count only before the words an order takes ("Toca no").
const TU =
  /(?<![\p{L}-])(teus?|tuas?|contigo|estás|podes|queres|tens|sabes|vês|lês|vais|precisas|gostas|preferes|encontras|consegues|tiveste|fizeste|viste|investiste|quiseres|tiveres|puderes|precisares|gostares|preferires|leres|veres|vires|encontrares|usares)(?![\p{L}-])/giu;
const VOCE_WORD = /(?<![\p{L}-])(você)(?![\p{L}])/giu;
const OBJECT = '(?= (?:um|uma|o|a|os|as)\\b)';
const ON = '(?= (?:no|na|para)\\b)';
const TU_ORDERS = [
  'lê',
  'vê',
  'clica',
  'subscreve',
  `toca${ON}`,
  `escolhe${OBJECT}`,
  `pesquisa${OBJECT}`,
  'pergunta(?=-me)',
];
const VOCE_ORDERS = [
  `toque${ON}`,
  'leia',
  'veja',
  'use',
  'pesquise',
  'clique',
  'siga',
  'explore',
  'mergulhe',
  'volte',
  'experimente',
  'descubra',
  'subscreva',
  'confirme',
  'fale',
  'imagine',
  'compare',
  'defina',
  'crie',
  'comece',
  'consulte',
  'saiba',
  'visite',
  'prefira',
  'verifique',
  'troque',
  'repare',
  'remova',
  'escreva',
  'envie',
  'faça',
  'tenha',
  'pergunte',
  `escolha${OBJECT}`,
];

/** An order given with one of `verbs`: capitalised where a sentence starts, in lower case after ":" or ";". */
function orders(verbs: readonly string[]): RegExp {
  const capital = verbs.map((v) => v[0]!.toUpperCase() + v.slice(1)).join('|');
  const lower = verbs.join('|');
  const clitic = '(?!-se\\b)(?:-(?:me|nos|o|a|os|as))?(?![\\p{L}-])';
  const sentence = '(?:(?:^|\\n)\\s*(?:[-*>]\\s+|\\d+\\.\\s+|#+\\s+)?|[.!?]\\s+|[«"(]\\s*)';
  return new RegExp(`(?:${sentence}((?:${capital})${clitic})|[:;]\\s+((?:${lower}|${capital})${clitic}))`, 'gu');
}

const TU_IMPERATIVE = orders(TU_ORDERS);
const VOCE_IMPERATIVE = orders(VOCE_ORDERS);
// "Se quiser ver" asks the reader; "Se tiver subido" after "a Euribor" does not, so only "quiser"
// followed by an infinitive counts.
const VOCE_IF = /(?:^|[.!?:;]\s+|\n\s*)([Ss]e quiser)(?= \p{L}+r\b)/gu;

/** The marks of register in one Portuguese text. */
export function registerMarks(text: string): RegisterMark[] {
  const marks: RegisterMark[] = [];
  const add = (register: Register, re: RegExp) => {
    for (const m of text.matchAll(re)) {
      const words = m[1] ?? m[2]!;
      marks.push({ register, words, offset: m.index + m[0].lastIndexOf(words) });
    }
  };
  add('tu', TU);
  add('tu', TU_IMPERATIVE);
  add('você', VOCE_WORD);
  add('você', VOCE_IMPERATIVE);
  add('você', VOCE_IF);
  return marks.sort((a, b) => a.offset - b.offset);
}

/**
 * The prose of a markdown body, with everything that is not the author speaking blanked out
 * (same length, so offsets stay valid): code, link targets and attributes, and quotations, whose
 * words are someone else's.
 */
export function proseOf(markdown: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, blank)
    .replace(/`[^`\n]*`/g, blank)
    .replace(/\]\([^)\n]*\)/g, blank)
    .replace(/\{[^}\n]*\}/g, blank)
    .replace(/«[^»\n]*»|"[^"\n]*"|“[^”\n]*”/g, blank);
}
