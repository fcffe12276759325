import { type KeyboardEvent, type MouseEvent, type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { isCssLength, isCssTime } from './cssValues';

export interface FlipCardProps {
  /** Required CSS lengths (docs/product.md, Input rules). */
  width: string;
  height: string;
  /** A time in s or ms, or '0'; 0.5s by default. */
  transition?: string;
  /**
   * Flip on click, on hover (and focus: what a hover shows, a focus shows too), or both. Either
   * way the card is a toggle button that Enter and Space (and a screen reader's activation) turn.
   */
  activeClick?: boolean;
  activeHover?: boolean;
  /** Rotate about the horizontal axis instead of the vertical one. */
  horizontal?: boolean;
  /** Controlled side: true shows the back. Leave undefined to let the card keep its own state. */
  value?: boolean;
  /** Called with the new side whenever the card flips (the model-value update of docs/product.md, Behaviour). */
  onChange?: (flipped: boolean) => void;
  front: ReactNode;
  back: ReactNode;
  /** Accessible name of the card when it can be flipped. */
  label?: string;
  /** The id of what describes the card to assistive technology (its back's text). */
  describedBy?: string;
  className?: string;
}

/** Flip defaults (docs/product.md, Constants). */
export const FLIP_DEFAULTS = { transition: '0.5s', perspective: 1000 } as const;

/**
 * A card with two faces that turns about its vertical (or horizontal) axis. Width and height
 * are validated as CSS lengths and the transition as a time: a wrong value is a programming
 * error, reported when the page is rendered.
 */
export function FlipCard({
  width,
  height,
  transition = FLIP_DEFAULTS.transition,
  activeClick = false,
  activeHover = false,
  horizontal = false,
  value,
  onChange,
  front,
  back,
  label,
  describedBy,
  className = '',
}: FlipCardProps) {
  if (!isCssLength(width)) throw new Error(`FlipCard: width "${width}" is not a CSS length`);
  if (!isCssLength(height)) throw new Error(`FlipCard: height "${height}" is not a CSS length`);
  if (!isCssTime(transition)) throw new Error(`FlipCard: transition "${transition}" is not a time in s or ms`);
  const [own, setOwn] = useState(false);
  const flipped = value ?? own;
  // The side last asked for, which events compare with: React may render an event's change after
  // the next event has come (a hover is rendered in a task of its own). A pointer that crossed the
  // card before its enter was rendered would otherwise leave a card that looked unturned, and the
  // enter's render would then turn it with no pointer over it. Each commit makes it the side shown
  // (the parent may have turned the card, or declined an ask), unless an ask came after the render
  // began: that ask is newer than what the commit shows.
  const side = useRef(flipped);
  const asks = useRef(0);
  const rendered = asks.current;
  useLayoutEffect(() => {
    if (asks.current === rendered) side.current = flipped;
  });
  const set = (next: boolean) => {
    if (next === side.current) return;
    side.current = next;
    asks.current++;
    if (value === undefined) setOwn(next);
    onChange?.(next);
  };
  const axis = horizontal ? 'X' : 'Y';
  const frame = {
    className: `flip ${flipped ? 'flip--flipped' : ''} ${className}`.trim(),
    style: { width, height, perspective: `${FLIP_DEFAULTS.perspective}px` },
  };
  const onMouseEnter = activeHover ? () => set(true) : undefined;
  const onMouseLeave = activeHover ? () => set(false) : undefined;
  const onFocus = activeHover ? () => set(true) : undefined;
  const onBlur = activeHover ? () => set(false) : undefined;
  const faces = (
    <div
      className="flip__inner"
      style={{ transition: `transform ${transition}`, transform: flipped ? `rotate${axis}(180deg)` : 'none' }}
    >
      <div className="flip__face flip__front" aria-hidden={flipped}>
        {front}
      </div>
      <div className="flip__face flip__back" style={{ transform: `rotate${axis}(180deg)` }} aria-hidden={!flipped}>
        {back}
      </div>
    </div>
  );
  if (activeClick || activeHover) {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        set(!side.current);
      }
    };
    // Where only hover turns the card, a pointer's click leaves it to the hover; a click with no
    // pointer behind it (detail 0: a screen reader's activation) turns it.
    const onClick = (event: MouseEvent) => {
      if (activeClick || event.detail === 0) set(!side.current);
    };
    return (
      // biome-ignore lint/a11y/useSemanticElements: a button in all but the element (role, focus, Enter and Space): a <button> may not hold the faces' blockquotes and paragraphs.
      <div
        {...frame}
        role="button"
        tabIndex={0}
        aria-pressed={flipped}
        aria-label={label}
        aria-describedby={describedBy}
        onClick={onClick}
        onKeyDown={onKeyDown}
        onMouseEnter={onMouseEnter}
        onMouseLeave={onMouseLeave}
        onFocus={onFocus}
        onBlur={onBlur}
      >
        {faces}
      </div>
    );
  }
  return <div {...frame}>{faces}</div>;
}
