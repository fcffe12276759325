export interface MotionToggleProps {
  /** True while the part stands still: the button then offers to play it. */
  paused: boolean;
  onToggle: () => void;
  pause: string;
  play: string;
  /** What the button moves or stops ("the quotes"), said to assistive technology after its verb. */
  what: string;
  className?: string;
}

/**
 * The pause control every moving part of a page has, at every motion setting (WCAG 2.2.2): a
 * button whose words say what a press does ("Pause" or "Play"), followed for assistive technology
 * by what it pauses.
 */
export function MotionToggle({ paused, onToggle, pause, play, what, className = '' }: MotionToggleProps) {
  return (
    <button type="button" className={`motion-toggle ${className}`.trim()} onClick={onToggle}>
      <span className="motion-toggle__icon" aria-hidden="true">
        {paused ? '▶' : '❚❚'}
      </span>
      {paused ? play : pause}
      <span className="visually-hidden"> {what}</span>
    </button>
  );
}

/** Whether the reader has asked for reduced motion; false on the server and before hydration. */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}
