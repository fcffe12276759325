import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { TOOL_ROOT } from '../build/fingerprint';
import { digest } from '../load/digest';
import type { CardColours } from '../shared/card';

/** The stylesheet whose `:root` holds the site's design tokens. */
const TOKENS_SHEET = path.join(TOOL_ROOT, 'templates', 'styles', 'base.css');

/** Each colour of a card and the token it is taken from. */
const TOKENS: Readonly<Record<keyof CardColours, string>> = {
  paper: '--paper',
  card: '--card',
  ink: '--ink',
  heading: '--heading',
  muted: '--muted',
  line: '--line',
  navy: '--navy',
  sand: '--sand',
  terracotta: '--terracotta',
};

/** What every card of a build is drawn with besides its words: the site's colours and the owner's avatar. */
export interface CardLook {
  colours: CardColours;
  /** The avatar as a data URL; absent when its file cannot be read (the check reports a missing file). */
  avatar?: string;
  /** A hash of the two: part of every card's inputs. */
  hash: string;
}

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
};

/**
 * The look of a build's cards: the colour tokens as base.css declares them now, and the avatar
 * that owner.json names (a "/media/..." path under the site's content/media).
 */
export async function readCardLook(root: string, avatarPath: string): Promise<CardLook> {
  const colours = tokenColours(await readFile(TOKENS_SHEET, 'utf8'));
  const type = IMAGE_TYPES[path.extname(avatarPath).toLowerCase()];
  const bytes =
    type && avatarPath.startsWith('/media/')
      ? await readFile(path.join(root, 'content', avatarPath)).catch(() => undefined)
      : undefined;
  const avatar = bytes && `data:${type};base64,${bytes.toString('base64')}`;
  return { colours, ...(avatar && { avatar }), hash: digest(JSON.stringify(colours), avatar ?? '') };
}

/**
 * The card's colours from the custom properties of a stylesheet's first `:root` rule: a
 * `light-dark(a, b)` value gives its light one. A token missing or not a plain colour is an error
 * of the tool's own stylesheet, and says which.
 */
export function tokenColours(css: string): CardColours {
  const root = /:root\s*\{([^}]*)\}/.exec(css.replace(/\/\*[\s\S]*?\*\//g, ''))?.[1] ?? '';
  const declared = new Map<string, string>();
  for (const [, name, value] of root.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g))
    declared.set(name as string, (value as string).trim());
  const colours = {} as Record<keyof CardColours, string>;
  for (const [key, token] of Object.entries(TOKENS) as [keyof CardColours, string][]) {
    const value = declared.get(token) ?? '';
    const light = /^light-dark\(\s*([^,]+?)\s*,/.exec(value)?.[1] ?? value;
    if (!/^#[0-9a-f]{3,8}$/i.test(light))
      throw new Error(
        `templates/styles/base.css: the share cards need ${token} as a colour in :root (found "${value}")`,
      );
    colours[key] = light;
  }
  return colours;
}
