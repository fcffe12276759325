import { renderToStaticMarkup } from 'react-dom/server';
import type { Lang } from '../../src/shared/lang';
import { ArticleEmail } from '../../templates/email/ArticleEmail';
import { ConfirmEmail } from '../../templates/email/ConfirmEmail';
import { fill, type SiteWords } from './siteWords';

/** An e-mail's three readings: the subject, the HTML part and the plain-text part. */
export interface MailContent {
  subject: string;
  html: string;
  text: string;
}

function html(element: React.ReactElement): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(element)}`;
}

/** Plain text wrapped at 72 columns, as mail programs show a text part best. */
function wrap(text: string, width = 72): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

export interface ConfirmationInput {
  words: SiteWords;
  lang: Lang;
  siteUrl: string;
  confirmUrl: string;
}

export function confirmationMail({ words, lang, siteUrl, confirmUrl }: ConfirmationInput): MailContent {
  const s = words.strings[lang];
  const site = words.owner.name;
  const title = s['newsletter.confirm.title'];
  const props = {
    lang,
    title,
    siteName: site,
    siteUrl,
    why: fill(s['email.confirm.ignore'], { site }),
    text: fill(s['email.confirm.text'], { site }),
    action: s['newsletter.confirm.button'],
    confirmUrl,
  };
  // The footer says what to do if it was not you: there is no list to leave yet.
  return {
    subject: fill(s['email.confirm.subject'], { site }),
    html: html(<ConfirmEmail {...props} />),
    text: [title, '', wrap(props.text), '', confirmUrl, '', wrap(props.why), ''].join('\n'),
  };
}

/** An article as one reader gets it, worked out by the send command (send.ts). */
export interface ArticleMailInput {
  words: SiteWords;
  /** The reader's language: the frame, the footer and the notice speak it. */
  lang: Lang;
  siteUrl: string;
  title: string;
  description: string;
  date: string;
  /** The first paragraphs as HTML (links absolute) and as text. */
  paragraphs: { html: string; text: string }[];
  url: string;
  /** True when the article is sent in the other language, the reader's lacking. */
  otherLanguage: boolean;
  unsubscribeUrl: string;
}

export function articleMail(input: ArticleMailInput): MailContent {
  const { words, lang } = input;
  const s = words.strings[lang];
  const site = words.owner.name;
  const why = fill(s['email.footer.why'], { site });
  const unsubscribe = { label: s['email.footer.unsubscribe'], url: input.unsubscribeUrl };
  const notice = input.otherLanguage ? s['email.article.onlyOther'] : undefined;
  const element = (
    <ArticleEmail
      lang={lang}
      title={input.title}
      siteName={site}
      siteUrl={input.siteUrl}
      why={why}
      unsubscribe={unsubscribe}
      description={input.description}
      date={input.date}
      paragraphs={input.paragraphs.map((p) => p.html)}
      url={input.url}
      read={s['email.article.read']}
      {...(notice ? { otherLanguage: notice } : {})}
    />
  );
  const text = [
    ...(notice ? [wrap(notice), ''] : []),
    input.title,
    input.date,
    '',
    wrap(input.description),
    '',
    ...input.paragraphs.flatMap((p) => [wrap(p.text), '']),
    `${s['email.article.read']}: ${input.url}`,
    '',
    '--',
    wrap(why),
    `${unsubscribe.label}: ${unsubscribe.url}`,
    '',
  ];
  return { subject: input.title, html: html(element), text: text.join('\n') };
}
