import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { isCssLength, isCssTime } from '../../../templates/pieces/cssValues';
import { FlipCard } from '../../../templates/pieces/FlipCard';

describe('FlipCard values (docs/product.md, Input rules)', () => {
  it('accepts every CSS length unit and keyword of docs/product.md, and nothing else', () => {
    for (const unit of [
      'px',
      'cm',
      'mm',
      'in',
      'pc',
      'pt',
      'em',
      'ex',
      'ch',
      'lh',
      'vh',
      'vw',
      'rem',
      'vmin',
      'vmax',
      '%',
    ]) {
      expect(isCssLength(`12.5${unit}`), unit).toBe(true);
    }
    for (const keyword of [
      'max-content',
      'min-content',
      'available',
      'fit-content',
      'auto',
      'inherit',
      'initial',
      'unset',
    ]) {
      expect(isCssLength(keyword), keyword).toBe(true);
    }
    for (const wrong of ['12', 'px', '12 px', '12furlongs', 'calc(1px + 2px)', ''])
      expect(isCssLength(wrong), wrong).toBe(false);
  });

  it('accepts a transition in s or ms, or 0', () => {
    for (const ok of ['0', '0.5s', '300ms', '.2s']) expect(isCssTime(ok), ok).toBe(true);
    for (const wrong of ['0.5', '5sec', '-1s', 'fast']) expect(isCssTime(wrong), wrong).toBe(false);
  });
});

describe('FlipCard', () => {
  const faces = { front: <span>front</span>, back: <span>back</span> };

  it('renders both faces with the 0.5 s default transition and perspective 1000', () => {
    const html = renderToString(<FlipCard width="300px" height="200px" {...faces} />);
    expect(html).toContain('perspective:1000px');
    expect(html).toContain('transition:transform 0.5s');
    expect(html).toContain('<span>front</span>');
    expect(html).toContain('<span>back</span>');
    expect(html).not.toContain('role="button"');
  });

  it('turns about the horizontal axis when asked, and shows the back when its value says so', () => {
    const html = renderToString(<FlipCard width="10rem" height="auto" horizontal value activeClick {...faces} />);
    expect(html).toContain('transform:rotateX(180deg)');
    expect(html).toContain('role="button"');
    expect(html).toContain('aria-pressed="true"');
  });

  it('refuses a width, height or transition that is not valid CSS', () => {
    expect(() => renderToString(<FlipCard width="300" height="200px" {...faces} />)).toThrow(
      'FlipCard: width "300" is not a CSS length',
    );
    expect(() => renderToString(<FlipCard width="300px" height="tall" {...faces} />)).toThrow(
      'FlipCard: height "tall" is not a CSS length',
    );
    expect(() => renderToString(<FlipCard width="300px" height="200px" transition="slow" {...faces} />)).toThrow(
      'is not a time',
    );
  });
});
