import { createHash, randomBytes } from 'node:crypto';
import { OperationalError } from '../../src/diagnostics/failure';
import type { Lang } from '../../src/shared/lang';
import { bilingualUrl } from '../../src/shared/route';
import { suppressionHash } from './address';
import { confirmationMail } from './emails';
import { newMessageId, type Postman } from './postman';
import type { SiteWords } from './siteWords';
import type { NewsletterStore, Subscriber } from './store';
import { Tokens } from './tokens';

/** A pending sign-up not confirmed within this time is removed, and its link stops working. */
export const PENDING_DAYS = 7;
/** At most one confirmation e-mail per address in this time, however often it is entered. */
export const CONFIRMATION_GAP_HOURS = 24;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The pages of the newsletter's links, in each language's URL scheme ("/pt" before the Portuguese). */
export const CONFIRM_PATH = '/newsletter/confirm';
export const UNSUBSCRIBE_PATH = '/newsletter/unsubscribe';

export interface NewsletterOptions {
  store: NewsletterStore;
  /** Where confirmation e-mails go: SMTP or the outbox folder. Without one they stay owed in the store. */
  postman?: Postman;
  /** The site's public origin for the links in e-mails ("https://example.com"), never taken from a request. */
  baseUrl: string;
  /** The key of the tokens (resolveSecret). */
  secret: string;
  /** The site's words, read when a page or an e-mail needs them. */
  words: () => Promise<SiteWords>;
  now?: () => Date;
  /**
   * The wait before the first retry of a confirmation e-mail that could not be sent; doubled each
   * time up to 15 minutes.
   */
  retryMs?: number;
  /** What went wrong with a confirmation e-mail, for the server's log. */
  warn?: (message: string) => void;
}

/** What a page's token turned out to be. */
export type TokenOutcome = { ok: true; subscriber: Subscriber } | { ok: false };

/**
 * The newsletter's server side: sign-ups with their consent, the confirmation e-mails (sent after
 * the answer, retried while the mail server is away), and what the confirm and unsubscribe pages
 * do. The visitor's answer never waits for, nor depends on, the mail server.
 */
export class Newsletter {
  readonly tokens: Tokens;
  private readonly now: () => Date;
  private sending: Promise<void> | undefined;
  private again = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private retryDelay: number;
  private closed = false;

  constructor(private readonly options: NewsletterOptions) {
    this.tokens = new Tokens(options.secret);
    this.now = options.now ?? (() => new Date());
    this.retryDelay = options.retryMs ?? 30_000;
    this.sweepTimer = setInterval(() => void this.sweep().catch(() => undefined), HOUR);
    this.sweepTimer.unref();
  }

  get postman(): Postman | undefined {
    return this.options.postman;
  }

  /**
   * A valid address signs up from a page in `lang`. Whatever its state, the caller gives the same
   * answer; a confirmation e-mail follows when one is owed, after this resolves.
   */
  async signUp(email: string, lang: Lang): Promise<void> {
    const now = this.now();
    const words = await this.options.words();
    await this.options.store.removeExpired(new Date(now.getTime() - PENDING_DAYS * DAY));
    await this.options.store.signUp({
      email,
      lang,
      consent: consentShown(words, lang),
      nonce: randomBytes(12).toString('base64url'),
      now,
      mailedBefore: new Date(now.getTime() - CONFIRMATION_GAP_HOURS * HOUR),
    });
    void this.sendConfirmations();
  }

  /** Sends every confirmation e-mail owed; resolves when this round is done. One round at a time. */
  sendConfirmations(): Promise<void> {
    if (this.sending) {
      this.again = true;
      return this.sending;
    }
    this.sending = this.confirmationRound().finally(() => {
      this.sending = undefined;
      if (this.again && !this.closed) {
        this.again = false;
        void this.sendConfirmations();
      }
    });
    return this.sending;
  }

  private async confirmationRound(): Promise<void> {
    const { store, postman } = this.options;
    if (!postman) return;
    const words = await this.options.words();
    const siteUrl = this.options.baseUrl;
    for (;;) {
      const owed = await store.claimConfirmations(this.now(), 20);
      if (owed.length === 0) return;
      for (const [i, mail] of owed.entries()) {
        const content = confirmationMail({
          words,
          lang: mail.lang,
          siteUrl: `${siteUrl}${bilingualUrl('/aboutme', mail.lang)}`,
          confirmUrl: this.confirmUrl(mail.id, mail.nonce, mail.lang),
        });
        try {
          await postman.send({ to: mail.email, ...content, messageId: newMessageId(new URL(siteUrl).hostname) });
        } catch (error) {
          // This one and the rest of the batch are owed again, for the next round.
          for (const left of owed.slice(i)) await store.releaseConfirmation(left.id);
          this.options.warn?.(
            `newsletter: a confirmation e-mail could not be sent (${error instanceof Error ? error.message : String(error)}); trying again in ${Math.round(this.retryDelay / 1000)} s`,
          );
          this.retryLater();
          return;
        }
      }
      this.retryDelay = this.options.retryMs ?? 30_000;
    }
  }

  private retryLater(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.sendConfirmations();
    }, this.retryDelay);
    this.retryTimer.unref();
    this.retryDelay = Math.min(this.retryDelay * 2, 15 * 60_000);
  }

  confirmUrl(id: number, nonce: string, lang: Lang): string {
    return `${this.options.baseUrl}${bilingualUrl(CONFIRM_PATH, lang)}?token=${this.tokens.sign('confirm', id, nonce)}`;
  }

  unsubscribeUrl(id: number, lang: Lang): string {
    return unsubscribeUrl(this.tokens, this.options.baseUrl, id, lang);
  }

  /** The subscriber a confirmation link names, if the link is still good (its sign-up pending and not expired). */
  async confirmable(token: unknown): Promise<TokenOutcome> {
    const subscriber = await this.named(token);
    if (!subscriber || typeof token !== 'string') return { ok: false };
    if (subscriber.state === 'confirmed' && this.tokens.verify(token, 'confirm', subscriber.id, subscriber.nonce))
      return { ok: true, subscriber };
    if (subscriber.state !== 'pending' || this.expired(subscriber)) return { ok: false };
    return this.tokens.verify(token, 'confirm', subscriber.id, subscriber.nonce)
      ? { ok: true, subscriber }
      : { ok: false };
  }

  /** Confirms the sign-up a good link names (pressing the button twice is not an error). */
  async confirm(token: unknown): Promise<TokenOutcome> {
    const found = await this.confirmable(token);
    if (!found.ok) return found;
    const { subscriber } = found;
    if (subscriber.state === 'pending') {
      const done = await this.options.store.confirm(
        subscriber.id,
        subscriber.nonce,
        this.now(),
        new Date(this.now().getTime() - PENDING_DAYS * DAY),
      );
      if (!done) return { ok: false };
      // A new, confirmed consent lifts an earlier "forget me".
      await this.options.store.unsuppress(suppressionHash(subscriber.email, this.options.secret));
    }
    return { ok: true, subscriber };
  }

  /** True when an unsubscribe link is one this site signed for that subscriber. */
  async leavable(token: unknown): Promise<{ ok: boolean; lang?: Lang }> {
    const id = Tokens.subscriberOf(token);
    if (id === undefined || typeof token !== 'string' || !this.tokens.verify(token, 'leave', id)) return { ok: false };
    const subscriber = await this.options.store.subscriber(id);
    return { ok: true, ...(subscriber ? { lang: subscriber.lang } : {}) };
  }

  /**
   * Unsubscribes the subscriber a good link names; a second time, or after `forget`, changes
   * nothing and is no error.
   */
  async leave(token: unknown): Promise<boolean> {
    const id = Tokens.subscriberOf(token);
    if (id === undefined || typeof token !== 'string' || !this.tokens.verify(token, 'leave', id)) return false;
    await this.options.store.leave(id, this.now());
    return true;
  }

  /** Removes the pending sign-ups older than 7 days; returns how many. */
  sweep(): Promise<number> {
    return this.options.store.removeExpired(new Date(this.now().getTime() - PENDING_DAYS * DAY));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweepTimer);
    clearTimeout(this.retryTimer);
    await this.sending?.catch(() => undefined);
  }

  private async named(token: unknown): Promise<Subscriber | undefined> {
    const id = Tokens.subscriberOf(token);
    return id === undefined ? undefined : this.options.store.subscriber(id);
  }

  private expired(subscriber: Subscriber): boolean {
    return Date.parse(subscriber.signedUpAt) < this.now().getTime() - PENDING_DAYS * DAY;
  }
}

/** The page (and RFC 8058 one-click target) that unsubscribes one subscriber, in their language. */
export function unsubscribeUrl(tokens: Tokens, baseUrl: string, id: number, lang: Lang): string {
  return `${baseUrl}${bilingualUrl(UNSUBSCRIBE_PATH, lang)}?token=${tokens.sign('leave', id)}`;
}

/**
 * Which sign-up text the visitor was shown, as its language and a hash of the words: the footer's
 * promise and its button. The text itself is stored once per version, for the export.
 */
export function consentShown(words: SiteWords, lang: Lang): { version: string; text: string } {
  const s = words.strings[lang];
  const text = `${s['newsletter.title']}: ${s['newsletter.text']} [${s['newsletter.submit']}]`;
  return { version: `${lang}-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`, text };
}

/** The minimum length of NEWSLETTER_SECRET: 32 characters, as many as the 16 random bytes in hex. */
const MIN_SECRET = 32;

/**
 * The key of the newsletter's tokens and suppression hashes: NEWSLETTER_SECRET when set, otherwise
 * one made on the first start and kept in the database, so every instance sharing it (and every
 * later start) signs and checks links alike.
 */
export async function resolveSecret(store: NewsletterStore, fromEnvironment: string | undefined): Promise<string> {
  if (fromEnvironment !== undefined && fromEnvironment !== '') {
    if (fromEnvironment.length < MIN_SECRET) {
      throw new OperationalError(
        `NEWSLETTER_SECRET has ${fromEnvironment.length} characters, fewer than ${MIN_SECRET}`,
        'Set it to a long random value (openssl rand -hex 32), or unset it to let the server make and keep one.',
      );
    }
    return fromEnvironment;
  }
  return store.setting('token_secret', randomBytes(32).toString('hex'));
}
