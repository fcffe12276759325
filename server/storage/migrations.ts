/** Where a store says what a migration did to the data already there (one line each). */
export type MigrationLog = (line: string) => void;

/**
 * The migrations that change what existing rows mean say so once, as they run: by schema version,
 * a query counting the rows concerned and the line to print with that count.
 */
export const MIGRATION_NOTES: Record<number, { count: string; line: (n: number) => string }> = {
  2: {
    count: "SELECT count(*) AS n FROM subscribers WHERE consent = 'legacy'",
    line: (n) =>
      `newsletter: migration 2 (double opt-in) kept ${n} existing subscriber${n === 1 ? '' : 's'} as confirmed (signed up before confirmation e-mails, consent "legacy")`,
  },
};

/**
 * Migration 2, the newsletter's double opt-in, in either dialect (`types`: how it writes an
 * identity key and a time). The subscribers stored before it count as confirmed, with the consent
 * version "legacy" and their sign-up time as the confirmation's; the old table is replaced.
 */
export function doubleOptIn(types: { id: string; time: string }): string {
  return `CREATE TABLE newsletter_subscribers (
     id ${types.id},
     email TEXT NOT NULL,
     email_key TEXT NOT NULL UNIQUE,
     lang TEXT NOT NULL CHECK (lang IN ('en', 'pt')),
     state TEXT NOT NULL CHECK (state IN ('pending', 'confirmed', 'unsubscribed', 'bounced')),
     signed_up_at ${types.time} NOT NULL,
     confirmed_at ${types.time},
     left_at ${types.time},
     consent TEXT NOT NULL,
     nonce TEXT NOT NULL,
     confirm_mailed_at ${types.time},
     confirm_owed INTEGER NOT NULL DEFAULT 0,
     bounce TEXT
   );
   INSERT INTO newsletter_subscribers (email, email_key, lang, state, signed_up_at, confirmed_at, consent, nonce)
     SELECT email, email_key, lang, 'confirmed', subscribed_at, subscribed_at, 'legacy', '' FROM subscribers ORDER BY subscribed_at, email_key;
   DROP TABLE subscribers;
   ALTER TABLE newsletter_subscribers RENAME TO subscribers;
   CREATE INDEX subscribers_owed ON subscribers (confirm_owed) WHERE confirm_owed = 1;
   CREATE TABLE newsletter_consents (version TEXT PRIMARY KEY, lang TEXT, text TEXT NOT NULL, first_shown_at ${types.time} NOT NULL);
   CREATE TABLE newsletter_deliveries (
     subscriber_id INTEGER NOT NULL,
     article TEXT NOT NULL,
     lang TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('sending', 'sent', 'failed')),
     at ${types.time} NOT NULL,
     message_id TEXT NOT NULL,
     response TEXT,
     PRIMARY KEY (subscriber_id, article)
   );
   CREATE TABLE newsletter_suppressions (hash TEXT PRIMARY KEY, at ${types.time} NOT NULL);
   CREATE TABLE newsletter_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);`;
}
