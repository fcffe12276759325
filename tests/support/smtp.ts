import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as the server received it: the envelope, the parsed message and its raw bytes. */
export interface Received {
  to: string[];
  mail: ParsedMail;
  raw: Buffer;
}

/** What the server answers for a recipient: accept, or an SMTP reply code and text. */
export type Verdict = { code: number; message: string } | undefined;

export interface LoopbackSmtp {
  url: string;
  port: number;
  received: Received[];
  /** Decides the answer to each RCPT TO (each recipient of each try). Accepts everything by default. */
  judge: (address: string) => Verdict;
  /** Messages whose recipient was refused, counted per address (every try). */
  refused: Map<string, number>;
  /** Resolves once `n` messages have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  /** Resolves with the messages to `address` once there are `n` of them. */
  arrival(address: string, n?: number, timeoutMs?: number): Promise<Received[]>;
  stop(): Promise<void>;
}

/**
 * A real SMTP server on a loopback port (the `smtp-server` package), keeping every message it
 * accepts, read with `mailparser`. No TLS and no authentication: the transport is what is tested.
 */
export async function startSmtp(options: { parse?: boolean; port?: number } = {}): Promise<LoopbackSmtp> {
  const parse = options.parse ?? true;
  const received: Received[] = [];
  const refused = new Map<string, number>();
  const waiters: { ready: () => boolean; resolve: () => void }[] = [];
  const wait = (ready: () => boolean, what: () => string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      if (ready()) return resolve();
      const timer = setTimeout(() => reject(new Error(what())), timeoutMs);
      waiters.push({
        ready,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  const to = (address: string) => received.filter((r) => r.to.includes(address));
  const smtp: LoopbackSmtp = {
    url: '',
    port: 0,
    received,
    refused,
    judge: () => undefined,
    async waitFor(n, timeoutMs = 10_000) {
      await wait(
        () => received.length >= n,
        () => `${received.length} of ${n} messages arrived in ${timeoutMs} ms`,
        timeoutMs,
      );
      return received;
    },
    async arrival(address, n = 1, timeoutMs = 10_000) {
      await wait(
        () => to(address).length >= n,
        () => `${to(address).length} of ${n} messages to ${address} arrived in ${timeoutMs} ms`,
        timeoutMs,
      );
      return to(address);
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 1024 * 1024,
    // A pooled client keeps its connection open: stopping does not wait for it.
    closeTimeout: 50,
    onRcptTo(address, _session, callback) {
      const verdict = smtp.judge(address.address);
      if (!verdict) return callback();
      refused.set(address.address, (refused.get(address.address) ?? 0) + 1);
      const error = new Error(verdict.message) as Error & { responseCode: number };
      error.responseCode = verdict.code;
      return callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const mail = parse ? await simpleParser(raw) : ({} as ParsedMail);
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail, raw });
        for (const w of waiters.filter((w) => w.ready())) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve()));
  smtp.port = (server.server.address() as { port: number }).port;
  smtp.url = `smtp://127.0.0.1:${smtp.port}`;
  return smtp;
}
