import type { Lang } from '../../src/shared/lang';
import type { MailContent } from './emails';
import { newMessageId, type OutgoingMail, type Postman, SendFailure } from './postman';
import type { NewsletterStore, Recipient } from './store';

/** Where each subscriber's message differs from the others of their language: the unsubscribe link. */
export const UNSUBSCRIBE_SLOT = 'https://unsubscribe.invalid/slot';

/** What one reader language's message is made of: rendered once, the unsubscribe link filled per reader. */
export interface EditionMail {
  content: MailContent;
}

export interface BatchOptions {
  store: NewsletterStore;
  postman: Postman;
  /** The article's route path: what a delivery is recorded against. */
  article: string;
  /** The message for readers of each language, with UNSUBSCRIBE_SLOT where their link goes. */
  mail: Record<Lang, MailContent>;
  /** A reader's unsubscribe URL. */
  unsubscribeUrl: (recipient: Recipient) => string;
  /** A mailto for List-Unsubscribe, where configured. */
  unsubscribeMailto?: string;
  /** The host of the Message-IDs (the site's). */
  host: string;
  /** Messages started per second at most. */
  rate: number;
  /** Messages in flight at once (SMTP connections). */
  concurrency: number;
  /** Tries of a message after a temporary failure (4xx, no answer), each after twice the wait of the last. */
  retries?: number;
  /** The wait before the first retry. */
  backoffMs?: number;
  /** Stops starting messages (Ctrl-C); those in flight finish and are recorded. */
  signal?: AbortSignal;
  onProgress?: (progress: BatchProgress) => void;
  now?: () => Date;
}

export interface BatchProgress {
  /** Subscribers this run has to send to. */
  total: number;
  sent: number;
  failed: number;
  /** Temporary failures that outlasted the retries: sent by the next run. */
  deferred: number;
}

export interface BatchReport extends BatchProgress {
  /** Confirmed subscribers who had it from an earlier run. */
  skipped: number;
  /** Deliveries an earlier run started and never finished (a crash): never sent again, as they may have arrived. */
  interrupted: number;
  /** Why the run stopped before the end: Ctrl-C, or the mail server out of reach. */
  stopped?: 'signal' | 'unreachable';
  /** The mail server's last word when it could not be reached. */
  unreachable?: string;
  /** Milliseconds spent sending. */
  milliseconds: number;
}

/**
 * Waits `ms`, or less when `signal` aborts. Its listener goes with the wait: a send paces every
 * message, and the listeners of ten waits left behind made Node warn of a leak across the
 * owner's progress bar.
 */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/** The message of one reader: their language's, with their own unsubscribe link. */
function personal(content: MailContent, url: string): Pick<OutgoingMail, 'subject' | 'html' | 'text'> {
  // The slot is an https URL of a reserved domain: nothing else in a message can contain it.
  return {
    subject: content.subject,
    html: content.html.replaceAll(UNSUBSCRIBE_SLOT, url.replaceAll('&', '&amp;')),
    text: content.text.replaceAll(UNSUBSCRIBE_SLOT, url),
  };
}

/**
 * Mails an article to every confirmed subscriber who has not had it. Each delivery is claimed in
 * the store before its message is handed over and marked sent after: a run stopped anywhere
 * (Ctrl-C, a crash, the mail server gone) is finished by running again, which sends only to those
 * with no delivery, so nobody gets the article twice. A message the server refuses for good (5xx)
 * is recorded and its address gets nothing more; a temporary refusal (4xx) or no answer is tried
 * again with growing waits; a server that stays out of reach stops the run.
 */
export async function sendArticle(options: BatchOptions): Promise<BatchReport> {
  const { store, postman, article, rate, signal } = options;
  const now = options.now ?? (() => new Date());
  const retries = options.retries ?? 3;
  const backoffMs = options.backoffMs ?? 2000;
  const before = await store.deliveryCounts(article);
  const recipients = await store.recipients(article);
  const progress: BatchProgress = { total: recipients.length, sent: 0, failed: 0, deferred: 0 };
  const report: BatchReport = {
    ...progress,
    skipped: before.sent + before.failed,
    interrupted: before.interrupted,
    milliseconds: 0,
  };
  const started = performance.now();
  const interval = 1000 / Math.max(rate, 0.001);
  let nextStart = performance.now();
  let next = 0;
  const stop = new AbortController();
  const stopped = () => signal?.aborted === true || stop.signal.aborted;

  const deliver = async (recipient: Recipient) => {
    const messageId = newMessageId(options.host);
    if (!(await store.claimDelivery({ subscriberId: recipient.id, article, lang: recipient.lang, messageId }, now()))) {
      report.skipped++;
      return;
    }
    const url = options.unsubscribeUrl(recipient);
    const mail: OutgoingMail = {
      to: recipient.email,
      ...personal(options.mail[recipient.lang], url),
      messageId,
      unsubscribe: { url, ...(options.unsubscribeMailto ? { mailto: options.unsubscribeMailto } : {}) },
    };
    for (let attempt = 0; ; attempt++) {
      try {
        const accepted = await postman.send(mail);
        await store.delivered(recipient.id, article, now(), accepted.response);
        progress.sent++;
        return;
      } catch (error) {
        const failure = error instanceof SendFailure ? error : new SendFailure('unreachable', String(error));
        if (failure.kind === 'permanent') {
          await store.failedForGood(recipient.id, article, now(), failure.message);
          progress.failed++;
          return;
        }
        if (attempt >= retries || stopped()) {
          await store.dropDelivery(recipient.id, article);
          progress.deferred++;
          if (failure.kind === 'unreachable') {
            report.unreachable = failure.message;
            stop.abort();
          }
          return;
        }
        await sleep(backoffMs * 2 ** attempt, signal);
      }
    }
  };

  const worker = async () => {
    while (!stopped() && next < recipients.length) {
      const recipient = recipients[next++]!;
      // Paced: each message starts its own interval after the one before, whichever worker sends it.
      const wait = nextStart - performance.now();
      nextStart = Math.max(nextStart, performance.now()) + interval;
      if (wait > 0) await sleep(wait, signal);
      // Stopped while waiting: this one was not claimed, and the next run sends it.
      if (stopped()) break;
      await deliver(recipient);
      options.onProgress?.({ ...progress });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  Object.assign(report, progress);
  report.milliseconds = performance.now() - started;
  if (report.unreachable) report.stopped = 'unreachable';
  else if (signal?.aborted) report.stopped = 'signal';
  return report;
}
