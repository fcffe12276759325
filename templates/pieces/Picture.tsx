import type { ImgHTMLAttributes } from 'react';
import type { Picture as Variants } from '../../src/shared/props';

type Props = ImgHTMLAttributes<HTMLImageElement> & {
  src: string;
  alt: string;
  /** The image's variants, when it is a raster image (src/images); none for SVG. */
  picture?: Variants | undefined;
  /** How wide the image is shown at each viewport width: the browser picks a variant by it. */
  sizes: string;
};

/**
 * An image of the content: a raster image as a `<picture>` of its variants (AVIF, WebP, then
 * the fallback's `srcset`), any other as a plain `<img>`. The template's width and height stay
 * the box's proportions; the `<picture>` itself lays out as if it were not there.
 */
export function Picture({ picture, sizes, alt, ...img }: Props) {
  if (!picture) return <img alt={alt} {...img} />;
  return (
    <picture>
      {picture.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={sizes} />
      ))}
      <img alt={alt} {...img} src={picture.src} srcSet={picture.srcset} sizes={sizes} />
    </picture>
  );
}
