import type { Lang } from '../../src/shared/lang';
import type { Row, Sql } from '../storage/sql';

export type SubscriberState = 'pending' | 'confirmed' | 'unsubscribed' | 'bounced';

export interface Subscriber {
  id: number;
  email: string;
  lang: Lang;
  state: SubscriberState;
  /** The last sign-up (ISO 8601, UTC); a pending sign-up expires 7 days after it. */
  signedUpAt: string;
  confirmedAt: string | null;
  /** Random, renewed by each sign-up that makes the address pending: a confirmation token signs it. */
  nonce: string;
}

/** One row of `site newsletter export`: the subscriber with the consent they gave. */
export interface ConsentRecord {
  email: string;
  lang: Lang;
  state: SubscriberState;
  signedUpAt: string;
  confirmedAt: string | null;
  leftAt: string | null;
  /** The version of the sign-up text shown ("legacy" for the subscribers from before double opt-in). */
  consent: string;
  /** That text, as the footer showed it. */
  consentText: string;
}

/** A sign-up as the repository stores it. */
export interface SignUpRecord {
  email: string;
  lang: Lang;
  /** The version of the consent text shown with the form, and that text. */
  consent: { version: string; text: string };
  nonce: string;
  now: Date;
  /** A confirmation e-mail is owed only when none was mailed to the address since then. */
  mailedBefore: Date;
}

/** A confirmation e-mail to send: claimed by one process, which sends it or gives it back. */
export interface OwedConfirmation {
  id: number;
  email: string;
  lang: Lang;
  nonce: string;
}

/** A confirmed subscriber an article has not been delivered to. */
export interface Recipient {
  id: number;
  email: string;
  lang: Lang;
}

/** One article's e-mail to one subscriber, in their language, under the Message-ID it is sent with. */
export interface Delivery {
  subscriberId: number;
  article: string;
  lang: Lang;
  messageId: string;
}

export interface DeliveryCounts {
  sent: number;
  failed: number;
  /** Claimed by a send that stopped before it knew the outcome: may have arrived, never sent again. */
  interrupted: number;
}

/**
 * The newsletter's repository: subscribers with their consent, the confirmation e-mails owed,
 * deliveries and suppressions, over either database (the SQL is written once, see storage/sql.ts).
 * Each method is one or two statements whose WHERE clauses carry the rule, so two server instances
 * sharing a PostgreSQL database cannot both claim the same e-mail.
 */
export interface NewsletterStore {
  /**
   * A new address becomes pending; a pending one stays pending (its link keeps working); an
   * unsubscribed or bounced one becomes pending again with a new nonce; a confirmed one is left
   * as it is. Any pending result owes a confirmation e-mail unless one was mailed since
   * `mailedBefore`.
   */
  signUp(record: SignUpRecord): Promise<void>;
  /** The confirmation e-mails owed, each claimed (marked mailed at `now`) by this call. */
  claimConfirmations(now: Date, limit: number): Promise<OwedConfirmation[]>;
  /** A claimed confirmation that could not be sent: owed again, as if never mailed. */
  releaseConfirmation(id: number): Promise<void>;
  subscriber(id: number): Promise<Subscriber | undefined>;
  /** Pending → confirmed, if the nonce is still the subscriber's and the sign-up is after `signedUpAfter`. */
  confirm(id: number, nonce: string, now: Date, signedUpAfter: Date): Promise<boolean>;
  /** Pending or confirmed → unsubscribed; false when the subscriber was not on the list. */
  leave(id: number, now: Date): Promise<boolean>;
  /** Removes the pending sign-ups made before `before`; returns how many. */
  removeExpired(before: Date): Promise<number>;
  /** The stored value of a setting, storing `candidate` first when there is none. */
  setting(key: string, candidate: string): Promise<string>;
  /** Confirmed subscribers with no delivery of `article`, by id. */
  recipients(article: string): Promise<Recipient[]>;
  /** How many confirmed subscribers have each language. */
  confirmedByLang(): Promise<Record<Lang, number>>;
  /** Records a delivery as under way before the message is handed over; false if one exists. */
  claimDelivery(delivery: Delivery, now: Date): Promise<boolean>;
  delivered(subscriberId: number, article: string, now: Date, response: string): Promise<void>;
  /** A permanent failure: recorded, and the address gets nothing more (state bounced). */
  failedForGood(subscriberId: number, article: string, now: Date, response: string): Promise<void>;
  /** A delivery that did not happen (temporary failures exhausted): the next run tries it again. */
  dropDelivery(subscriberId: number, article: string): Promise<void>;
  deliveryCounts(article: string): Promise<DeliveryCounts>;
  /** Everything about the address removed; its hash kept as a suppression. False if nothing was stored. */
  forget(emailKey: string, hash: string, now: Date): Promise<boolean>;
  isSuppressed(hash: string): Promise<boolean>;
  /** Lifts the suppression of an address that signed up and confirmed again. */
  unsuppress(hash: string): Promise<void>;
  subscribers(): Promise<ConsentRecord[]>;
}

const SUBSCRIBER = 'id, email, lang, state, signed_up_at, confirmed_at, nonce';

function subscriberOf(row: Row): Subscriber {
  return {
    id: Number(row.id),
    email: String(row.email),
    lang: row.lang as Lang,
    state: row.state as SubscriberState,
    signedUpAt: String(row.signed_up_at),
    confirmedAt: row.confirmed_at === null ? null : String(row.confirmed_at),
    nonce: String(row.nonce),
  };
}

export function newsletterStore(sql: Sql): NewsletterStore {
  return {
    async signUp({ email, lang, consent, nonce, now, mailedBefore }) {
      const at = now.toISOString();
      const key = email.toLowerCase();
      await sql.run(
        'INSERT INTO newsletter_consents (version, lang, text, first_shown_at) VALUES ($1, $2, $3, $4) ON CONFLICT (version) DO NOTHING',
        [consent.version, lang, consent.text, at],
      );
      const inserted = await sql.run(
        `INSERT INTO subscribers (email, email_key, lang, state, signed_up_at, consent, nonce, confirm_owed)
         VALUES ($1, $2, $3, 'pending', $4, $5, $6, 1) ON CONFLICT (email_key) DO NOTHING`,
        [email, key, lang, at, consent.version, nonce],
      );
      if (inserted === 1) return;
      // Back from unsubscribed or bounced: a new sign-up, with the consent given now.
      await sql.run(
        `UPDATE subscribers SET state = 'pending', email = $2, lang = $3, signed_up_at = $4, consent = $5, nonce = $6, confirmed_at = NULL, left_at = NULL, bounce = NULL
         WHERE email_key = $1 AND state IN ('unsubscribed', 'bounced')`,
        [key, email, lang, at, consent.version, nonce],
      );
      await sql.run(
        `UPDATE subscribers SET confirm_owed = 1 WHERE email_key = $1 AND state = 'pending' AND (confirm_mailed_at IS NULL OR confirm_mailed_at < $2)`,
        [key, mailedBefore.toISOString()],
      );
    },
    async claimConfirmations(now, limit) {
      const rows = await sql.all(
        `UPDATE subscribers SET confirm_owed = 0, confirm_mailed_at = $1
         WHERE id IN (SELECT id FROM subscribers WHERE confirm_owed = 1 AND state = 'pending' ORDER BY id LIMIT $2) AND confirm_owed = 1
         RETURNING id, email, lang, nonce`,
        [now.toISOString(), limit],
      );
      return rows.map((r) => ({
        id: Number(r.id),
        email: String(r.email),
        lang: r.lang as Lang,
        nonce: String(r.nonce),
      }));
    },
    async releaseConfirmation(id) {
      await sql.run(
        `UPDATE subscribers SET confirm_owed = 1, confirm_mailed_at = NULL WHERE id = $1 AND state = 'pending'`,
        [id],
      );
    },
    async subscriber(id) {
      const [row] = await sql.all(`SELECT ${SUBSCRIBER} FROM subscribers WHERE id = $1`, [id]);
      return row && subscriberOf(row);
    },
    async confirm(id, nonce, now, signedUpAfter) {
      const changed = await sql.run(
        `UPDATE subscribers SET state = 'confirmed', confirmed_at = $3, confirm_owed = 0 WHERE id = $1 AND nonce = $2 AND state = 'pending' AND signed_up_at >= $4`,
        [id, nonce, now.toISOString(), signedUpAfter.toISOString()],
      );
      return changed === 1;
    },
    async leave(id, now) {
      const changed = await sql.run(
        `UPDATE subscribers SET state = 'unsubscribed', left_at = $2, confirm_owed = 0 WHERE id = $1 AND state IN ('pending', 'confirmed')`,
        [id, now.toISOString()],
      );
      return changed === 1;
    },
    async removeExpired(before) {
      return sql.run(`DELETE FROM subscribers WHERE state = 'pending' AND signed_up_at < $1`, [before.toISOString()]);
    },
    async setting(key, candidate) {
      await sql.run('INSERT INTO newsletter_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
        key,
        candidate,
      ]);
      const [row] = await sql.all('SELECT value FROM newsletter_settings WHERE key = $1', [key]);
      return String(row?.value);
    },
    async recipients(article) {
      const rows = await sql.all(
        `SELECT s.id, s.email, s.lang FROM subscribers s
         WHERE s.state = 'confirmed' AND NOT EXISTS (SELECT 1 FROM newsletter_deliveries d WHERE d.subscriber_id = s.id AND d.article = $1)
         ORDER BY s.id`,
        [article],
      );
      return rows.map((r) => ({ id: Number(r.id), email: String(r.email), lang: r.lang as Lang }));
    },
    async confirmedByLang() {
      const rows = await sql.all(`SELECT lang, count(*) AS n FROM subscribers WHERE state = 'confirmed' GROUP BY lang`);
      const counts: Record<Lang, number> = { en: 0, pt: 0 };
      for (const r of rows) counts[r.lang as Lang] = Number(r.n);
      return counts;
    },
    async claimDelivery({ subscriberId, article, lang, messageId }, now) {
      const claimed = await sql.run(
        `INSERT INTO newsletter_deliveries (subscriber_id, article, lang, state, at, message_id) VALUES ($1, $2, $3, 'sending', $4, $5) ON CONFLICT (subscriber_id, article) DO NOTHING`,
        [subscriberId, article, lang, now.toISOString(), messageId],
      );
      return claimed === 1;
    },
    async delivered(subscriberId, article, now, response) {
      await sql.run(
        `UPDATE newsletter_deliveries SET state = 'sent', at = $3, response = $4 WHERE subscriber_id = $1 AND article = $2`,
        [subscriberId, article, now.toISOString(), response],
      );
    },
    async failedForGood(subscriberId, article, now, response) {
      await sql.run(
        `UPDATE newsletter_deliveries SET state = 'failed', at = $3, response = $4 WHERE subscriber_id = $1 AND article = $2`,
        [subscriberId, article, now.toISOString(), response],
      );
      await sql.run(`UPDATE subscribers SET state = 'bounced', bounce = $2 WHERE id = $1`, [subscriberId, response]);
    },
    async dropDelivery(subscriberId, article) {
      await sql.run(
        `DELETE FROM newsletter_deliveries WHERE subscriber_id = $1 AND article = $2 AND state = 'sending'`,
        [subscriberId, article],
      );
    },
    async deliveryCounts(article) {
      const rows = await sql.all(
        'SELECT state, count(*) AS n FROM newsletter_deliveries WHERE article = $1 GROUP BY state',
        [article],
      );
      const n = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
      return { sent: n('sent'), failed: n('failed'), interrupted: n('sending') };
    },
    async forget(emailKey, hash, now) {
      const [row] = await sql.all('SELECT id FROM subscribers WHERE email_key = $1', [emailKey]);
      if (row) {
        await sql.run('DELETE FROM newsletter_deliveries WHERE subscriber_id = $1', [Number(row.id)]);
        await sql.run('DELETE FROM subscribers WHERE id = $1', [Number(row.id)]);
      }
      const added = await sql.run(
        'INSERT INTO newsletter_suppressions (hash, at) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING',
        [hash, now.toISOString()],
      );
      return row !== undefined || added === 0;
    },
    async isSuppressed(hash) {
      return (await sql.all('SELECT 1 AS x FROM newsletter_suppressions WHERE hash = $1', [hash])).length > 0;
    },
    async unsuppress(hash) {
      await sql.run('DELETE FROM newsletter_suppressions WHERE hash = $1', [hash]);
    },
    async subscribers() {
      const rows = await sql.all(
        `SELECT s.email, s.lang, s.state, s.signed_up_at, s.confirmed_at, s.left_at, s.consent, c.text AS consent_text
         FROM subscribers s LEFT JOIN newsletter_consents c ON c.version = s.consent
         ORDER BY s.signed_up_at, s.email`,
      );
      return rows.map((r) => ({
        email: String(r.email),
        lang: r.lang as Lang,
        state: r.state as SubscriberState,
        signedUpAt: String(r.signed_up_at),
        confirmedAt: r.confirmed_at === null ? null : String(r.confirmed_at),
        leftAt: r.left_at === null ? null : String(r.left_at),
        consent: String(r.consent),
        consentText: r.consent_text === null ? LEGACY_CONSENT : String(r.consent_text),
      }));
    },
  };
}

/** What the export says of the consent of subscribers from before double opt-in. */
export const LEGACY_CONSENT =
  'Signed up through the footer form before confirmation e-mails existed; no confirmation recorded.';
