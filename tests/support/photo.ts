import sharp from 'sharp';

/**
 * A camera's photo: 2400 × 1600 (or `width` wide, in the same proportions) with a few shapes (so
 * that it compresses like a picture, not like a flat fill), and the maker, the model and a GPS
 * position in its EXIF.
 */
export async function cameraPhoto(background = '#6a8caf', width = 2400): Promise<Buffer> {
  const shapes = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="1600"><rect width="2400" height="1000" fill="${background}"/><rect y="1000" width="2400" height="600" fill="#2f4f6f"/><circle cx="1800" cy="420" r="180" fill="#f2c14e"/><path d="M0 1000 L600 640 L1100 1000 Z" fill="#35506b"/></svg>`,
  );
  return sharp(shapes)
    .resize(width)
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'Acme Optics', Model: 'Harbour 7', ImageDescription: 'Lisbon harbour' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '38/1 42/1 3120/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '9/1 8/1 4500/100',
      },
    })
    .toBuffer();
}

/** A home-screen icon: a 192 × 192 PNG. */
export function appIcon(): Promise<Buffer> {
  const square = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="192" height="192"><rect width="192" height="192" rx="32" fill="#2a9d8f"/><circle cx="96" cy="96" r="48" fill="#f4f1de"/></svg>',
  );
  return sharp(square).png().toBuffer();
}
