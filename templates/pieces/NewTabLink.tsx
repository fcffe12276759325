import type { ReactNode } from 'react';

/**
 * A link that opens in a new tab, without giving the opened page a handle on this one. The
 * optional note ("opens in a new tab") is read by screen readers only.
 */
export function NewTabLink({
  href,
  className,
  note,
  children,
}: {
  href: string;
  className?: string;
  note?: string;
  children: ReactNode;
}) {
  return (
    <a className={className} href={href} target="_blank" rel="noopener noreferrer">
      {children}
      {note && <span className="visually-hidden"> ({note})</span>}
    </a>
  );
}
