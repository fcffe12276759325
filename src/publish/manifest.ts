import type { Site } from '../model/site';

/** The web app manifest: name, start page, colours and the icon. */
export function webManifest(site: Site): string {
  const { owner, config } = site.content;
  return `${JSON.stringify(
    {
      name: `${owner.name} · ${owner.subtitle.en}`,
      short_name: owner.name,
      start_url: '/aboutme',
      display: 'browser',
      background_color: '#faf7f2',
      theme_color: '#0b2545',
      icons: [
        { src: site.media(config.favicon), sizes: 'any', type: 'image/svg+xml' },
        ...config.icons.map((icon) => ({ src: site.media(icon.src), sizes: icon.sizes, type: 'image/png' })),
      ],
    },
    null,
    2,
  )}\n`;
}
