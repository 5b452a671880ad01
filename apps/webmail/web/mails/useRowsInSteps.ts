import { startTransition, useEffect, useState } from 'react';

/** Rows drawn with the list's answer: more than a screenful. */
const FIRST_ROWS = 12;
/** Rows added in each frame after that. */
const ROWS_PER_STEP = 6;

/**
 * How many of a list's rows to draw: a screenful at once, the rest a step at a time, each after a frame is painted.
 * Laying out the rows' text is most of a list's first render on a phone (a script without a font of its own is
 * shaped over again in every layout): fifty rows at once are one long task, ten at a time short ones.
 */
export function useRowsInSteps(count: number): number {
  const [shown, setShown] = useState(FIRST_ROWS);

  // An emptied list (another folder, another filter) starts again with a screenful.
  useEffect(() => {
    if (count === 0) setShown(FIRST_ROWS);
  }, [count]);

  useEffect(() => {
    if (shown >= count) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // After the next paint: a timer set from the frame's callback runs once that frame is drawn.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setShown((current) => current + ROWS_PER_STEP)));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [shown, count]);

  return Math.min(shown, count);
}
