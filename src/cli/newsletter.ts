import { openStore, type StoreOptions } from '../../server/storage/open';

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

export function subscribersCsv(rows: { email: string; lang: string; subscribedAt: string }[]): string {
  const lines = ['email,language,subscribed_at', ...rows.map((r) => [r.email, r.lang, r.subscribedAt].map(csvField).join(','))];
  return `${lines.join('\n')}\n`;
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
