import { useEffect, useRef, useState } from 'react';
import { LANGUAGES, type Lang } from '../../src/shared/lang';
import type { LanguageLabels } from '../../src/shared/props';

export interface LanguageSwitchProps {
  lang: Lang;
  /** Edition URLs of the page; a missing language is not offered. */
  alternates: Partial<Record<Lang, string>>;
  variant: 'flags' | 'footer';
  flags: Record<Lang, string>;
  /** Per target language: the link's label and the warning shown when it is not offered. */
  labels: Record<Lang, LanguageLabels>;
  currentLabel: string;
}

const WARNING_MS = 5000;

/**
 * The language flags of the toolbar and the footer's language entry. A language the page offers
 * is a link to that edition (the choice is remembered); one it does not offer shows the warning
 * of docs/product.md (When something fails) in the target language, and nothing else changes. The warning closes after
 * 5 s, with its × or with Escape; focus that was on its × goes back to the flag that opened it.
 */
export function LanguageSwitch(props: LanguageSwitchProps) {
  const [warning, setWarning] = useState<Lang | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (warning === null) return undefined;
    const close = () => {
      // Focus inside the warning would fall to the page's start when it goes.
      if (box.current?.contains(document.activeElement)) opener.current?.focus();
      setWarning(null);
    };
    const timer = window.setTimeout(close, WARNING_MS);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      window.clearTimeout(timer);
      document.removeEventListener('keydown', onKey);
    };
  }, [warning]);

  const targets = props.variant === 'flags' ? LANGUAGES : LANGUAGES.filter((l) => l !== props.lang);
  return (
    <div className={`lang-switch lang-switch--${props.variant}`}>
      {targets.map((target) => {
        const label = props.labels[target];
        const href = props.alternates[target];
        const current = target === props.lang;
        // Flags are above the fold but tiny: low priority keeps React from preloading them.
        const content =
          props.variant === 'flags' ? (
            <img src={props.flags[target]} alt="" width={28} height={19} fetchPriority="low" />
          ) : (
            label.name
          );
        if (current) {
          return (
            <span
              key={target}
              className="lang-switch__item lang-switch__item--current"
              title={`${props.currentLabel}: ${label.name}`}
            >
              {content}
              <span className="visually-hidden">{`${props.currentLabel}: ${label.name}`}</span>
            </span>
          );
        }
        if (href) {
          return (
            <a
              key={target}
              className="lang-switch__item"
              href={href}
              hrefLang={target}
              lang={target}
              title={label.switchTo}
            >
              {content}
              {props.variant === 'flags' && <span className="visually-hidden">{label.switchTo}</span>}
            </a>
          );
        }
        return (
          <button
            key={target}
            type="button"
            className="lang-switch__item"
            lang={target}
            title={label.switchTo}
            onClick={(event) => {
              opener.current = event.currentTarget;
              setWarning(target);
            }}
          >
            {content}
            {props.variant === 'flags' && <span className="visually-hidden">{label.switchTo}</span>}
          </button>
        );
      })}
      {warning !== null && (
        <div ref={box} className="notification notification--warning" role="alert" lang={warning}>
          <strong className="notification__title">{props.labels[warning].warningTitle}</strong>
          <span className="notification__text">{props.labels[warning].warningText}</span>
          <button
            type="button"
            className="notification__close"
            aria-label={props.labels[warning].dismiss}
            onClick={() => {
              opener.current?.focus();
              setWarning(null);
            }}
          >
            ×
          </button>
        </div>
      )}
    </div>
  );
}
