import { type Diagnostic, diagnostic, type Place } from '../diagnostics/diagnostic';
import type { Site } from '../model/site';
import { bodyPlace, frontMatterPlace, jsonPlace } from './place';

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
const TU_ORDERS = ['lê', 'vê', 'clica', 'subscreve', `toca${ON}`, `escolhe${OBJECT}`, `pesquisa${OBJECT}`, 'pergunta(?=-me)'];
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

interface PortugueseText {
  text: string;
  place: (offset: number) => Place;
}

/** Every Portuguese text of the site that speaks to its reader, with where to report in it. */
function portugueseTexts(site: Site): PortugueseText[] {
  const texts: PortugueseText[] = [];
  const json = (file: string, value: unknown, path: (string | number)[] = []) => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) json(file, item, [...path, i]);
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'pt' && typeof child === 'string') texts.push({ text: child, place: () => jsonPlace(site, file, [...path, key]) });
        else if (key === 'pt' && Array.isArray(child)) {
          for (const [i, line] of child.entries()) {
            if (typeof line === 'string') texts.push({ text: line, place: () => jsonPlace(site, file, [...path, key, i]) });
          }
        } else json(file, child, [...path, key]);
      }
    }
  };
  const { content } = site;
  json('content/strings.json', content.strings);
  json('content/navigation.json', content.navigation);
  json('content/owner.json', content.owner);
  for (const [name, page] of Object.entries(content.pages)) json(`content/pages/${name}.json`, page);
  for (const category of site.categories.values()) json(category.file, category.data);
  for (const article of site.articles) {
    const edition = article.editions.pt;
    if (!edition) continue;
    for (const key of ['title', 'description'] as const) {
      const value = edition.source.frontMatter[key];
      if (value) texts.push({ text: value, place: () => frontMatterPlace(edition, [key]) });
    }
    const { body } = edition.source;
    const prose = proseOf(body);
    texts.push({
      text: prose,
      place: (offset) => {
        const before = body.slice(0, offset);
        const line = before.split('\n').length;
        return bodyPlace(edition, line, offset - before.lastIndexOf('\n'));
      },
    });
  }
  return texts;
}

/**
 * I18N004: the Portuguese texts address the reader in one register. When both *tu* and *você*
 * appear, the less used one is reported at each place it appears (a tie reports *você*).
 */
export function checkRegister(site: Site): Diagnostic[] {
  const found = portugueseTexts(site).flatMap((t) => registerMarks(t.text).map((mark) => ({ mark, place: () => t.place(mark.offset) })));
  const count = (r: Register) => found.filter((f) => f.mark.register === r).length;
  const tu = count('tu');
  const voce = count('você');
  if (tu === 0 || voce === 0) return [];
  const odd: Register = voce <= tu ? 'você' : 'tu';
  const usual = found.find((f) => f.mark.register !== odd)!;
  const example = { words: usual.mark.words, file: usual.place().file };
  return found.filter((f) => f.mark.register === odd).map(({ mark, place }) => diagnostic('I18N004', place(), { words: mark.words, form: odd, places: Math.max(tu, voce), example }));
}
