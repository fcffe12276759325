import { useEffect, useRef, useState } from 'react';
import { MotionToggle, prefersReducedMotion } from './MotionToggle';

export interface TypewriterProps {
  texts: string[];
  pause: string;
  play: string;
  /** What the pause control stops: the greeting and the banner's video. */
  what: string;
}

/** The typewriter's timings (docs/product.md, Constants), in milliseconds. */
export const TYPEWRITER = { typeMs: 100, eraseMs: 100, delayMs: 2000, startMs: 2200, pauseMs: 1100 } as const;

/**
 * Types each text, waits, erases it and moves to the next, wrapping around. The server renders the
 * first text in full (readable without JavaScript); the animation starts after the start delay.
 *
 * It shares the About Me banner with the video, and one control pauses both (WCAG 2.2.2). Where the
 * reader asked for reduced motion, both stand still from the start: the first text whole, the
 * video's poster (its sources are only for readers who did not ask, templates/pages/AboutMe.tsx);
 * the control plays them. Paused, the text being typed or erased shows whole; played again, it
 * waits, is erased, and the cycle goes on.
 */
export function Typewriter({ texts, pause, play, what }: TypewriterProps) {
  const first = texts[0] ?? '';
  const [shown, setShown] = useState(first);
  // Undecided (null) until the reader's motion setting is read, after hydration: the server cannot know it.
  const [paused, setPaused] = useState<boolean | null>(null);
  const element = useRef<HTMLDivElement>(null);
  /** The text being typed, erased or shown. */
  const index = useRef(0);
  const started = useRef(false);

  useEffect(() => setPaused(prefersReducedMotion()), []);

  useEffect(() => {
    const video = element.current?.closest('.banner')?.querySelector('video');
    if (!video || paused === null) return;
    if (paused) {
      video.pause();
      return;
    }
    const held = [...video.querySelectorAll('source')].filter((source) => source.media !== '');
    if (held.length > 0) {
      // Under reduced motion the sources matched no media: the reader asked to play it after all.
      for (const source of held) source.removeAttribute('media');
      video.load();
    }
    video.play().catch(() => {
      // Autoplay refused (a data saver, a policy): the poster stays, as it would without the script.
    });
  }, [paused]);

  useEffect(() => {
    if (texts.length === 0 || paused === null) return undefined;
    if (paused) {
      setShown(texts[index.current] ?? '');
      return undefined;
    }
    let cancelled = false;
    let timer = 0;
    const wait = (ms: number) =>
      new Promise<void>((resolve) => {
        timer = window.setTimeout(resolve, ms);
      });
    const run = async (startMs: number) => {
      await wait(startMs);
      let current = texts[index.current] ?? '';
      for (;;) {
        await wait(TYPEWRITER.delayMs);
        for (let n = current.length - 1; n >= 0 && !cancelled; n--) {
          setShown(current.slice(0, n));
          await wait(TYPEWRITER.eraseMs);
        }
        await wait(TYPEWRITER.pauseMs);
        index.current = (index.current + 1) % texts.length;
        current = texts[index.current] ?? '';
        for (let n = 1; n <= current.length && !cancelled; n++) {
          setShown(current.slice(0, n));
          await wait(TYPEWRITER.typeMs);
        }
        if (cancelled) return;
      }
    };
    void run(started.current ? 0 : TYPEWRITER.startMs);
    started.current = true;
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [texts, paused]);

  return (
    <div ref={element} className="typewriter-box">
      <p className="typewriter">
        <span className="visually-hidden">{texts.join(' ')}</span>
        <span className="typewriter__text" aria-hidden="true">
          {shown}
        </span>
        {!paused && <span className="typewriter__cursor" aria-hidden="true" />}
      </p>
      <MotionToggle
        paused={paused === true}
        onToggle={() => setPaused((p) => !p)}
        pause={pause}
        play={play}
        what={what}
        className="motion-toggle--banner"
      />
    </div>
  );
}
