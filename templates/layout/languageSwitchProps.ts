import type { Chrome } from '../../src/shared/props';
import type { LanguageSwitchProps } from '../islands/LanguageSwitch';

/** The language switch's props, taken from the chrome. */
export function languageSwitchProps(chrome: Chrome, variant: LanguageSwitchProps['variant']): LanguageSwitchProps {
  return {
    lang: chrome.lang,
    alternates: chrome.alternates,
    variant,
    flags: chrome.flags,
    currentLabel: chrome.strings['lang.current'],
    labels: chrome.languages,
  };
}
