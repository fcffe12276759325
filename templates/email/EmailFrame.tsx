import type { ReactNode } from 'react';
import type { Lang } from '../../src/shared/lang';

/**
 * The site's colours for mail: e-mail programs drop custom properties and most of a <style>, so
 * each element carries its own style, in the light scheme; the <style> adds the dark scheme for
 * the programs that honour it.
 */
export const MAIL = {
  navy: '#0b2545',
  paper: '#faf7f2',
  card: '#ffffff',
  ink: '#1b2230',
  muted: '#5a6272',
  line: '#e4ded3',
  link: '#1e40af',
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  serif: 'Georgia, "Iowan Old Style", "Times New Roman", serif',
} as const;

const DARK = `@media (prefers-color-scheme: dark) {
  .mail-body, .mail-page { background: #0f141c !important; }
  .mail-card { background: #171e29 !important; border-color: #2c3544 !important; }
  .mail-card, .mail-card p, .mail-card h1 { color: #e3e7ee !important; }
  .mail-card a:not(.mail-button) { color: #a9c2ff !important; }
  .mail-muted, .mail-muted a { color: #a6afbd !important; }
  .mail-note { background: #1a2848 !important; color: #e3e7ee !important; }
  .mail-button { background: #f4d6a0 !important; color: #0b2545 !important; }
}`;

export interface EmailFrameProps {
  lang: Lang;
  title: string;
  /** The site's name (the owner's), shown above the message and linked to the site. */
  siteName: string;
  siteUrl: string;
  /** The footer: why the reader gets this, and the unsubscribe link where there is one. */
  why: string;
  unsubscribe?: { label: string; url: string };
  children: ReactNode;
}

/** One e-mail of the newsletter: the site's name, a card holding the message, the footer. */
export function EmailFrame({ lang, title, siteName, siteUrl, why, unsubscribe, children }: EmailFrameProps) {
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <title>{title}</title>
        <style>{DARK}</style>
      </head>
      <body className="mail-body" style={{ margin: 0, padding: 0, background: MAIL.paper }}>
        <div
          className="mail-page"
          style={{ background: MAIL.paper, padding: '24px 12px', fontFamily: MAIL.font, color: MAIL.ink }}
        >
          <div style={{ maxWidth: '600px', margin: '0 auto' }}>
            <p style={{ margin: '0 0 16px', fontSize: '15px', fontWeight: 700, letterSpacing: '0.02em' }}>
              <a href={siteUrl} style={{ color: MAIL.navy, textDecoration: 'none' }} className="mail-muted">
                {siteName}
              </a>
            </p>
            <div
              className="mail-card"
              style={{
                background: MAIL.card,
                border: `1px solid ${MAIL.line}`,
                borderRadius: '14px',
                padding: '28px 24px',
                lineHeight: 1.6,
                fontSize: '16px',
              }}
            >
              {children}
            </div>
            <p
              className="mail-muted"
              style={{ margin: '16px 4px 0', fontSize: '13px', lineHeight: 1.5, color: MAIL.muted }}
            >
              {why}
              {unsubscribe && (
                <>
                  {' '}
                  <a href={unsubscribe.url} style={{ color: MAIL.muted }}>
                    {unsubscribe.label}
                  </a>
                </>
              )}
            </p>
          </div>
        </div>
      </body>
    </html>
  );
}

/** The message's one call to action: a link drawn as the site's button. */
export function EmailButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <p style={{ margin: '24px 0' }}>
      <a
        className="mail-button"
        href={href}
        style={{
          display: 'inline-block',
          background: MAIL.navy,
          color: '#ffffff',
          padding: '12px 22px',
          borderRadius: '999px',
          fontWeight: 600,
          textDecoration: 'none',
        }}
      >
        {children}
      </a>
    </p>
  );
}
