import type { Lang } from '../../src/shared/lang';

export interface Subscriber {
  email: string;
  lang: Lang;
  /** ISO 8601, UTC. */
  subscribedAt: string;
}

/**
 * What the API keeps: the visit count and the newsletter subscribers (e-mail, language, time).
 * No IP address or other visitor data. Two adapters: SQLite (embedded default) and PostgreSQL.
 * Every write is durable once its promise resolves.
 */
export interface SiteStore {
  incrementViews(): Promise<void>;
  viewCount(): Promise<number>;
  /** Stores the address once, case-insensitively; subscribing twice is not an error. */
  subscribe(email: string, lang: Lang): Promise<'subscribed' | 'already'>;
  subscribers(): Promise<Subscriber[]>;
  close(): Promise<void>;
}
