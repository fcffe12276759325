import type { Chrome } from '../../src/shared/props';
import { Island } from '../islands/Island';
import { languageSwitchProps } from './languageSwitchProps';

/** Toolbar colour per route (docs/product.md, Pages): transparent, transparent-on-mobile, or blue. */
export function toolbarTone(chrome: Chrome): 'transparent' | 'professional' | 'blue' {
  if (chrome.kind === 'aboutme') return 'transparent';
  if (chrome.kind === 'professional') return 'professional';
  return 'blue';
}

/** The toolbar: the four links and the flags on desktop; the flags and the menu on mobile. */
export function Toolbar({ chrome }: { chrome: Chrome }) {
  const s = chrome.strings;
  return (
    // A named section is a region landmark: the flags and the menu button sit inside one.
    <section className={`toolbar toolbar--${toolbarTone(chrome)}`} aria-label={s['toolbar.label']}>
      <nav className="toolbar__nav" aria-label={s['nav.label']}>
        <ul>
          {chrome.nav.map((link) => (
            <li key={link.url}>
              <a href={link.url} aria-current={link.current ? 'page' : undefined}>
                {link.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <a className="toolbar__brand" href={chrome.nav[0]?.url}>
        {chrome.owner.name}
      </a>
      <div className="toolbar__end">
        <Island name="ThemeToggle" props={{ lang: chrome.lang, label: s['theme.dark'] }} />
        <Island name="LanguageSwitch" props={languageSwitchProps(chrome, 'flags')} />
        <div className="toolbar__menu">
          <Island
            name="MenuDrawer"
            props={{
              lang: chrome.lang,
              nav: chrome.nav,
              socials: chrome.owner.socials,
              name: chrome.owner.name,
              year: chrome.year,
              counterLabel: s['counter.label'],
              counterText: s['counter.comingSoon'],
              findMe: s['drawer.findMe'],
              openLabel: s['menu.open'],
              closeLabel: s['menu.close'],
              navLabel: s['drawer.nav'],
              themeLabel: s['theme.dark'],
            }}
          />
        </div>
      </div>
    </section>
  );
}
