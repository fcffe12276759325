import { buildApp } from './app';

export interface ServeOptions {
  distDir: string;
  port: number;
  host: string;
}

/** Starts the production server and keeps it running until the process is stopped. */
export async function startServer(options: ServeOptions): Promise<void> {
  const app = await buildApp({ distDir: options.distDir, logger: { level: 'info' } });
  const close = () => void app.close().then(() => process.exit(0));
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ port: options.port, host: options.host });
}
