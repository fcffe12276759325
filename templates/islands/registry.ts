import { LanguageSwitch } from './LanguageSwitch';
import { MenuDrawer } from './MenuDrawer';
import { NewsletterForm } from './NewsletterForm';
import { QuoteCarousel } from './QuoteCarousel';
import { RotatingCard } from './RotatingCard';
import { SearchBox } from './SearchBox';
import { ThemeToggle } from './ThemeToggle';
import { Typewriter } from './Typewriter';
import { VisitCounter } from './VisitCounter';

/** Every island by name: the server renders it, the client bundle hydrates it. */
export const ISLANDS = {
  LanguageSwitch,
  MenuDrawer,
  NewsletterForm,
  QuoteCarousel,
  RotatingCard,
  SearchBox,
  ThemeToggle,
  Typewriter,
  VisitCounter,
} as const;

export type IslandName = keyof typeof ISLANDS;
