import type { ReactNode } from 'react';
import type { Chrome } from '../../src/shared/props';
import { Footer } from './Footer';
import { Header } from './Header';
import { Toolbar } from './Toolbar';

/** Header, toolbar, the page's main content and the footer, inside the app element. */
export function Layout({ chrome, children }: { chrome: Chrome; children: ReactNode }) {
  return (
    <div id="app" className={`page page--${chrome.kind}`}>
      <a className="skip-link" href="#main">
        {chrome.strings.skipToContent}
      </a>
      <Header chrome={chrome} />
      <Toolbar chrome={chrome} />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer chrome={chrome} />
    </div>
  );
}
