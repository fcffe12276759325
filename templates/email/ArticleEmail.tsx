import { EmailButton, EmailFrame, type EmailFrameProps, MAIL } from './EmailFrame';

export interface ArticleEmailProps extends Omit<EmailFrameProps, 'children'> {
  description: string;
  /** "12 March 2025", in the reader's language. */
  date: string;
  /** The article's first paragraphs, as the site renders them (links made absolute). */
  paragraphs: string[];
  url: string;
  read: string;
  /** Where the reader's language lacks the article: the line saying it exists only in the other. */
  otherLanguage?: string;
}

/** A new article: its title, description and first paragraphs, and the way to the whole of it. */
export function ArticleEmail({ description, date, paragraphs, url, read, otherLanguage, ...frame }: ArticleEmailProps) {
  return (
    <EmailFrame {...frame}>
      {otherLanguage && (
        <p
          className="mail-note"
          style={{
            margin: '0 0 16px',
            padding: '8px 12px',
            borderLeft: `4px solid ${MAIL.link}`,
            background: '#dbe6ff',
            color: MAIL.ink,
            fontSize: '14px',
          }}
        >
          {otherLanguage}
        </p>
      )}
      <p className="mail-muted" style={{ margin: '0 0 4px', fontSize: '13px', color: MAIL.muted }}>
        {date}
      </p>
      <h1 style={{ margin: '0 0 8px', fontFamily: MAIL.serif, fontSize: '26px', lineHeight: 1.25, color: MAIL.navy }}>
        <a href={url} style={{ color: MAIL.navy, textDecoration: 'none' }}>
          {frame.title}
        </a>
      </h1>
      <p style={{ margin: '0 0 16px', fontSize: '17px', color: MAIL.muted }} className="mail-muted">
        {description}
      </p>
      {paragraphs.map((html) => (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the site's own compiled markdown (src/markdown), its links made absolute
        <p key={html} style={{ margin: '0 0 14px' }} dangerouslySetInnerHTML={{ __html: html }} />
      ))}
      <EmailButton href={url}>{read}</EmailButton>
    </EmailFrame>
  );
}
