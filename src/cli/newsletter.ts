import { openStore, type StoreOptions } from '../../server/storage/open';

/** A CSV field, quoted when it holds a comma, a quote or a line break. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function subscribersCsv(rows: { email: string; lang: string; subscribedAt: string }[]): string {
  return ['email,language,subscribed_at', ...rows.map((r) => [r.email, r.lang, r.subscribedAt].map(csvField).join(','))].join('\n') + '\n';
}

export async function runNewsletterExport(options: StoreOptions): Promise<number> {
  const store = await openStore(options);
  try {
    process.stdout.write(subscribersCsv(await store.subscribers()));
    return 0;
  } finally {
    await store.close();
  }
}
