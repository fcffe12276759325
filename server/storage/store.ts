import type { NewsletterStore } from '../newsletter/store';

/**
 * What the API keeps: the visit count and the newsletter (subscribers with their consent,
 * deliveries, suppressions). No IP address or other visitor data. Two adapters: SQLite (embedded
 * default) and PostgreSQL. Every write is durable once its promise resolves.
 */
export interface SiteStore {
  incrementViews(): Promise<void>;
  viewCount(): Promise<number>;
  newsletter: NewsletterStore;
  close(): Promise<void>;
}
