import { useEffect, useState } from 'react';
import type { Lang } from '../../src/shared/lang';
import { THEME_KEY, type Theme } from '../../src/shared/theme';

export interface ThemeToggleProps {
  lang: Lang;
  /** The button's name: "Dark theme"; its pressed state says whether it is on. */
  label: string;
  /** Shows the name beside the icon (in the drawer); the toolbar shows the icon alone. */
  showLabel?: boolean;
}

const THEME_EVENT = 'site:theme';

function currentTheme(): Theme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/**
 * A switch between the light and dark schemes (a toggle button, pressed when dark). The scheme
 * starts as the reader's system has it; a press overrides it and is remembered (THEME_KEY), and
 * every toggle of the page (toolbar, drawer) shows the same state. Hidden until the script runs:
 * without it, the page follows the system and there is nothing to switch with.
 */
export function ThemeToggle({ label, showLabel = false }: ThemeToggleProps) {
  const [theme, setTheme] = useState<Theme | undefined>(undefined);

  useEffect(() => {
    const update = () => setTheme(currentTheme());
    update();
    const system = window.matchMedia('(prefers-color-scheme: dark)');
    system.addEventListener('change', update);
    window.addEventListener(THEME_EVENT, update);
    return () => {
      system.removeEventListener('change', update);
      window.removeEventListener(THEME_EVENT, update);
    };
  }, []);

  const toggle = () => {
    const next: Theme = currentTheme() === 'dark' ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      // Storage refused (a private window): the choice holds for this page.
    }
    window.dispatchEvent(new Event(THEME_EVENT));
  };

  return (
    <button
      type="button"
      className={`theme-toggle${showLabel ? ' theme-toggle--labelled' : ''}`}
      aria-pressed={theme === 'dark'}
      hidden={theme === undefined}
      onClick={toggle}
      title={showLabel ? undefined : label}
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path d="M20.5 14.2A8.5 8.5 0 0 1 9.8 3.5a8.5 8.5 0 1 0 10.7 10.7z" />
      </svg>
      <span className={showLabel ? 'theme-toggle__label' : 'visually-hidden'}>{label}</span>
    </button>
  );
}
