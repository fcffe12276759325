import { LanguageSwitch } from './LanguageSwitch';
import { MenuDrawer } from './MenuDrawer';
import { QuoteCarousel } from './QuoteCarousel';
import { RotatingCard } from './RotatingCard';
import { Typewriter } from './Typewriter';

/** Every island by name: the server renders it, the client bundle hydrates it. */
export const ISLANDS = { LanguageSwitch, MenuDrawer, QuoteCarousel, RotatingCard, Typewriter } as const;

export type IslandName = keyof typeof ISLANDS;
