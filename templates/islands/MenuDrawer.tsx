import { useEffect, useRef, useState } from 'react';
import type { Lang } from '../../src/shared/lang';
import type { NavLink, SocialLink } from '../../src/shared/props';
import { NewTabLink } from '../pieces/NewTabLink';
import { ThemeToggle } from './ThemeToggle';
import { VisitCounter } from './VisitCounter';

export interface MenuDrawerProps {
  lang: Lang;
  nav: NavLink[];
  socials: SocialLink[];
  name: string;
  year: number;
  counterLabel: string;
  counterText: string;
  findMe: string;
  openLabel: string;
  closeLabel: string;
  navLabel: string;
  /** The name of the colour scheme switch ("Dark theme"). */
  themeLabel: string;
}

/**
 * The mobile menu: a button opening a temporary drawer from the right with the links, the year
 * and name, the visit counter and the social icons. Page scrolling is locked while it is open and
 * restored on close; Escape and the backdrop close it.
 */
export function MenuDrawer(props: MenuDrawerProps) {
  const [open, setOpen] = useState(false);
  const closeButton = useRef<HTMLButtonElement>(null);
  const openButton = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const { body } = document;
    const previous = body.style.overflow;
    body.style.overflow = 'hidden';
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
      if (event.key === 'Tab') trapFocus(event, drawer.current);
    };
    window.addEventListener('keydown', onKey);
    return () => {
      body.style.overflow = previous;
      window.removeEventListener('keydown', onKey);
      openButton.current?.focus();
    };
  }, [open]);

  return (
    <>
      <button
        ref={openButton}
        type="button"
        className="menu-button"
        aria-expanded={open}
        aria-controls="drawer"
        onClick={() => setOpen(true)}
      >
        <span className="menu-button__bars" aria-hidden="true" />
        <span className="visually-hidden">{props.openLabel}</span>
      </button>
      <div
        className={`drawer-backdrop${open ? ' drawer-backdrop--open' : ''}`}
        onClick={() => setOpen(false)}
        aria-hidden="true"
      />
      {/* A modal dialog while open: focus is kept inside it (trapFocus) and the page behind is locked. */}
      <div
        ref={drawer}
        id="drawer"
        className={`drawer${open ? ' drawer--open' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-label={props.navLabel}
        aria-hidden={!open}
        inert={!open}
      >
        <button ref={closeButton} type="button" className="drawer__close" onClick={() => setOpen(false)}>
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">{props.closeLabel}</span>
        </button>
        <nav aria-label={props.navLabel}>
          <ul className="drawer__links">
            {props.nav.map((link) => (
              <li key={link.url}>
                <a href={link.url} aria-current={link.current ? 'page' : undefined} onClick={() => setOpen(false)}>
                  {link.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <ThemeToggle lang={props.lang} label={props.themeLabel} showLabel />
        <p className="drawer__year">
          © {props.year} {props.name}
        </p>
        <p className="drawer__counter">
          {props.counterLabel}: <VisitCounter lang={props.lang} comingSoon={props.counterText} />
        </p>
        <h2 className="drawer__heading">{props.findMe}</h2>
        <ul className="drawer__socials">
          {props.socials.map((social) => (
            <li key={social.url}>
              <NewTabLink href={social.url}>
                <img src={social.img} alt={social.name} width={32} height={32} loading="lazy" decoding="async" />
              </NewTabLink>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}

/** Keeps Tab and Shift+Tab cycling inside the open drawer. */
function trapFocus(event: KeyboardEvent, container: HTMLElement | null): void {
  if (!container) return;
  const focusable = [...container.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')];
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !container.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !container.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}
