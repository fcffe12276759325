import { useEffect, useState } from 'react';

export interface TypewriterProps {
  texts: string[];
}

/** Spec section 9 timings, in milliseconds. */
export const TYPEWRITER = { typeMs: 100, eraseMs: 100, delayMs: 2000, startMs: 2200, pauseMs: 1100 } as const;

/**
 * Types each text, waits, erases it and moves to the next, wrapping around. The server renders the
 * first text in full (readable without JavaScript); the animation starts after the start delay.
 */
export function Typewriter({ texts }: TypewriterProps) {
  const first = texts[0] ?? '';
  const [shown, setShown] = useState(first);

  useEffect(() => {
    if (texts.length === 0) return undefined;
    let cancelled = false;
    let timer = 0;
    const wait = (ms: number) =>
      new Promise<void>((resolve) => {
        timer = window.setTimeout(resolve, ms);
      });
    const run = async () => {
      await wait(TYPEWRITER.startMs);
      let index = 0;
      let current = first;
      for (;;) {
        await wait(TYPEWRITER.delayMs);
        for (let n = current.length - 1; n >= 0 && !cancelled; n--) {
          setShown(current.slice(0, n));
          await wait(TYPEWRITER.eraseMs);
        }
        await wait(TYPEWRITER.pauseMs);
        index = (index + 1) % texts.length;
        current = texts[index] ?? '';
        for (let n = 1; n <= current.length && !cancelled; n++) {
          setShown(current.slice(0, n));
          await wait(TYPEWRITER.typeMs);
        }
        if (cancelled) return;
      }
    };
    void run();
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [texts, first]);

  return (
    <p className="typewriter">
      <span className="visually-hidden">{texts.join(' ')}</span>
      <span className="typewriter__text" aria-hidden="true">
        {shown}
      </span>
      <span className="typewriter__cursor" aria-hidden="true" />
    </p>
  );
}
