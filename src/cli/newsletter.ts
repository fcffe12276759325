import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { addressKey, mailAddress, suppressionHash } from '../../server/newsletter/address';
import { articleMail, type MailContent } from '../../server/newsletter/emails';
import { outboxDir, postmanFor, senderOf } from '../../server/newsletter/environment';
import { newMessageId, writeEml } from '../../server/newsletter/postman';
import { type BatchProgress, type BatchReport, sendArticle, UNSUBSCRIBE_SLOT } from '../../server/newsletter/send';
import { resolveSecret, unsubscribeUrl } from '../../server/newsletter/service';
import { loadSiteWords, type SiteWords } from '../../server/newsletter/siteWords';
import type { ConsentRecord } from '../../server/newsletter/store';
import { Tokens } from '../../server/newsletter/tokens';
import { openStore, type StoreOptions } from '../../server/storage/open';
import { loadSite } from '../build/pipeline';
import { type MailedArticle, mailedArticle } from '../newsletter/article';
import { readableDate } from '../shared/date';
import { LANGUAGES, type Lang, otherLang } from '../shared/lang';
import { report } from './report';

/**
 * A CSV field as a spreadsheet will read it. A cell starting with =, +, - or @ (or a tab or a
 * carriage return, which some spreadsheets skip before looking) would be run as a formula when
 * the file is opened, so a subscriber could have typed one (OWASP, "CSV Injection"): such a cell
 * gets a leading single quote, which spreadsheets take as "this is text". Then the field is
 * quoted when it holds a comma, a quote or a line break.
 */
export function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The subscribers with their consent: the state, when they signed up and confirmed or left, and the
 * text they were shown.
 */
export function subscribersCsv(rows: ConsentRecord[]): string {
  const header = 'email,language,state,signed_up_at,confirmed_at,unsubscribed_at,consent_version,consent_text';
  const lines = rows.map((r) =>
    [r.email, r.lang, r.state, r.signedUpAt, r.confirmedAt ?? '', r.leftAt ?? '', r.consent, r.consentText]
      .map(csvField)
      .join(','),
  );
  return `${[header, ...lines].join('\n')}\n`;
}

export async function runNewsletterExport(options: StoreOptions): Promise<number> {
  const store = await openStore(options);
  try {
    process.stdout.write(subscribersCsv(await store.newsletter.subscribers()));
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * `site newsletter forget <address>`: everything stored about the address goes (its subscription,
 * its deliveries); a hash of it stays as a suppression, so that it is not added back unasked.
 */
export async function runNewsletterForget(options: StoreOptions & { address: string }): Promise<number> {
  const address = mailAddress(options.address);
  if (!address) {
    console.error(`✗ "${options.address.slice(0, 80)}" is not an e-mail address`);
    return 2;
  }
  const store = await openStore(options);
  try {
    const secret = await resolveSecret(store.newsletter, process.env.NEWSLETTER_SECRET);
    const found = await store.newsletter.forget(addressKey(address), suppressionHash(address, secret), new Date());
    console.log(
      found
        ? `✓ ${address}: removed; only a suppression hash is kept`
        : `✓ ${address} was not stored; a suppression hash is kept so it is not added unasked`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

export interface SendOptions extends StoreOptions {
  root: string;
  /** The article's route, or the URL path of one of its editions. */
  route: string;
  dryRun: boolean;
  /** The site's public origin for links; content/site.json's baseUrl by default. */
  baseUrl?: string;
  /** Messages per second. */
  rate: number;
  /** The wait before the first retry of a temporary failure (tests shorten it). */
  backoffMs?: number;
}

/** Messages in flight at once: one SMTP connection per 20 messages a second, from 1 to 8. */
function connectionsFor(rate: number): number {
  return Math.min(8, Math.max(1, Math.ceil(rate / 20)));
}

/** Each reader language's message, with the unsubscribe link left as a slot (send.ts fills it per reader). */
function messagesOf(
  article: MailedArticle,
  words: SiteWords,
  baseUrl: string,
): { mail: Record<Lang, MailContent>; edition: Record<Lang, Lang> } {
  const mail = {} as Record<Lang, MailContent>;
  const edition = {} as Record<Lang, Lang>;
  for (const reader of LANGUAGES) {
    const lang = article.editions[reader] ? reader : otherLang(reader);
    const e = article.editions[lang]!;
    edition[reader] = lang;
    mail[reader] = articleMail({
      words,
      lang: reader,
      siteUrl: baseUrl,
      title: e.title,
      description: e.description,
      date: readableDate(e.date, reader),
      paragraphs: e.paragraphs,
      url: e.url,
      otherLanguage: lang !== reader,
      unsubscribeUrl: UNSUBSCRIBE_SLOT,
    });
  }
  return { mail, edition };
}

const NAMES: Record<Lang, string> = { en: 'English', pt: 'Portuguese' };
const count = (n: number) => n.toLocaleString('en-GB');

/**
 * `site newsletter send <route> [--dry-run]`: the article to every confirmed subscriber in their
 * language (see server/newsletter/send.ts for what a run records and how it resumes).
 */
export async function runNewsletterSend(options: SendOptions): Promise<number> {
  const { site, diagnostics } = await loadSite(options.root);
  if (!site) {
    report(options.root, diagnostics, 'human');
    console.error('✗ the content has errors: nothing was sent');
    return 1;
  }
  const baseUrl = (options.baseUrl ?? site.content.config.baseUrl).replace(/\/+$/, '');
  const article = mailedArticle(site, options.route, baseUrl);
  const words = await loadSiteWords(options.root);
  const { mail, edition } = messagesOf(article, words, baseUrl);
  const from = senderOf(process.env, words.owner.name, baseUrl);
  const store = await openStore(options);
  try {
    const newsletter = store.newsletter;
    const tokens = new Tokens(await resolveSecret(newsletter, process.env.NEWSLETTER_SECRET));
    for (const h of article.held)
      console.log(
        `note: the ${NAMES[h.lang]} edition is ${h.why}; its readers get the ${NAMES[otherLang(h.lang)]} edition`,
      );
    if (options.dryRun)
      return await dryRun({
        root: options.root,
        article,
        mail,
        edition,
        from,
        recipients: await newsletter.recipients(article.route),
        sample: `${baseUrl}/newsletter/unsubscribe?token=sample`,
      });
    const postman = postmanFor(process.env, options.root, from, connectionsFor(options.rate));
    const stop = new AbortController();
    const interrupt = () => {
      // The first Ctrl-C stops starting messages; those in flight finish and are recorded. A second one ends at once.
      process.stderr.write(
        '\nstopping: the messages under way finish and are recorded (Ctrl-C again to quit at once)\n',
      );
      stop.abort();
      process.once('SIGINT', () => process.exit(130));
    };
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
    const bar = progressBar(article.route);
    let result: BatchReport;
    try {
      result = await sendArticle({
        store: newsletter,
        postman,
        article: article.route,
        mail,
        unsubscribeUrl: (r) => unsubscribeUrl(tokens, baseUrl, r.id, r.lang),
        ...(process.env.NEWSLETTER_UNSUBSCRIBE_MAILTO
          ? { unsubscribeMailto: process.env.NEWSLETTER_UNSUBSCRIBE_MAILTO }
          : {}),
        host: new URL(baseUrl).hostname,
        rate: options.rate,
        concurrency: connectionsFor(options.rate),
        ...(options.backoffMs !== undefined ? { backoffMs: options.backoffMs } : {}),
        signal: stop.signal,
        onProgress: bar.update,
      });
    } finally {
      bar.done();
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
      postman.close();
    }
    console.log(summaryLine(article.route, result, postman.where));
    if (result.stopped === 'unreachable') {
      console.error(
        `✗ the mail server could not be reached (${result.unreachable}); run the same command again to send the rest`,
      );
      return 1;
    }
    return result.stopped === 'signal' ? 130 : 0;
  } finally {
    await store.close();
  }
}

/** One line for a log: what was sent, skipped and failed, and how fast. */
export function summaryLine(route: string, r: BatchReport, where: string): string {
  const seconds = r.milliseconds / 1000;
  const speed = r.sent > 0 && seconds > 0 ? `, ${(r.sent / seconds).toFixed(1)} messages/s` : '';
  const parts = [`sent ${count(r.sent)}`, `skipped ${count(r.skipped)}`, `failed ${count(r.failed)}`];
  if (r.deferred > 0) parts.push(`left for the next run ${count(r.deferred)}`);
  if (r.interrupted > 0) parts.push(`interrupted earlier, not sent again ${count(r.interrupted)}`);
  const mark = r.stopped ? '✗' : '✓';
  return `${mark} ${route}: ${parts.join(', ')} (to ${where}, ${seconds.toFixed(1)} s${speed})${r.stopped === 'signal' ? '; stopped: run it again to send the rest' : ''}`;
}

/** A bar on a terminal, redrawn at most ten times a second; nothing otherwise (the summary line says it all). */
function progressBar(
  route: string,
  stream: NodeJS.WriteStream = process.stderr,
): { update: (p: BatchProgress) => void; done: () => void } {
  if (!stream.isTTY || process.env.CI) return { update: () => undefined, done: () => undefined };
  let latest: BatchProgress | undefined;
  let drawn = false;
  const draw = () => {
    if (!latest || latest.total === 0) return;
    const doneCount = latest.sent + latest.failed + latest.deferred;
    const width = 24;
    const filled = Math.round((doneCount / latest.total) * width);
    stream.write(
      `\r\x1b[2K${route} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${count(doneCount)}/${count(latest.total)} · sent ${count(latest.sent)} · failed ${count(latest.failed)}`,
    );
    drawn = true;
  };
  const timer = setInterval(draw, 100);
  timer.unref();
  return {
    update: (p) => {
      latest = p;
    },
    done: () => {
      clearInterval(timer);
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}

interface DryRun {
  root: string;
  article: MailedArticle;
  /** Each reader language's message, and the edition it carries. */
  mail: Record<Lang, MailContent>;
  edition: Record<Lang, Lang>;
  from: string;
  recipients: { lang: Lang }[];
  /** The unsubscribe link of the messages written, which belong to no subscriber. */
  sample: string;
}

/** What a send would do: who would get which edition, and the two messages written to files. */
async function dryRun({ root, article, mail, edition, from, recipients, sample }: DryRun): Promise<number> {
  const dir = path.join(outboxDir(root), 'dry-run');
  await mkdir(dir, { recursive: true });
  console.log(
    `${article.route}: ${count(recipients.length)} confirmed subscriber${recipients.length === 1 ? '' : 's'} would get it (nothing is sent in a dry run)`,
  );
  const slug = article.route.split('/').filter(Boolean).join('-');
  for (const reader of LANGUAGES) {
    const n = recipients.filter((r) => r.lang === reader).length;
    const note = edition[reader] !== reader ? `, with a line saying it exists only in ${NAMES[edition[reader]]}` : '';
    const file = path.join(dir, `${slug}.${reader}.eml`);
    await writeEml(file, from, {
      to: `reader-${reader}@example.com`,
      subject: mail[reader].subject,
      html: mail[reader].html.replaceAll(UNSUBSCRIBE_SLOT, sample),
      text: mail[reader].text.replaceAll(UNSUBSCRIBE_SLOT, sample),
      messageId: newMessageId('dry-run.invalid'),
      unsubscribe: { url: sample },
    });
    console.log(
      `  ${NAMES[reader]} readers: ${count(n)}, the ${NAMES[edition[reader]]} edition${note} → ${path.relative(process.cwd(), file)}`,
    );
  }
  return 0;
}
