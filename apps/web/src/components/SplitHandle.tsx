import { useState, type KeyboardEvent, type PointerEvent } from 'react';

const KEY = 'sessionboxer.split';
const MIN = 25;
const MAX = 80;
const DEFAULT = 60;
const STEP = 5;

const clamp = (n: number) => Math.min(MAX, Math.max(MIN, Math.round(n)));

function stored(): number {
  const n = Number(localStorage.getItem(KEY));
  return Number.isFinite(n) && n >= MIN && n <= MAX ? n : DEFAULT;
}

/** The conversation's share of the session view's width (25–80 %), kept in this browser. */
export function useSplit(): [number, (n: number) => void] {
  const [percent, setPercent] = useState(stored);
  const set = (n: number) => {
    const next = clamp(n);
    setPercent(next);
    localStorage.setItem(KEY, String(next));
  };
  return [percent, set];
}

interface Props {
  percent: number;
  onChange: (percent: number) => void;
}

/**
 * The handle between the conversation and the panes: drag it, or focus it and use the arrow
 * keys (Home / End for the ends). Hidden where the panes sit under the conversation.
 */
export function SplitHandle({ percent, onChange }: Props) {
  const drag = (e: PointerEvent<HTMLDivElement>) => {
    const body = e.currentTarget.parentElement;
    if (!body) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    const box = body.getBoundingClientRect();
    const move = (ev: globalThis.PointerEvent) =>
      onChange(((ev.clientX - box.left) / box.width) * 100);
    const target = e.currentTarget;
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
  };
  const key = (e: KeyboardEvent<HTMLDivElement>) => {
    const to: Record<string, number> = {
      ArrowLeft: percent - STEP,
      ArrowRight: percent + STEP,
      Home: MIN,
      End: MAX,
    };
    if (!(e.key in to)) return;
    e.preventDefault();
    onChange(to[e.key]);
  };
  return (
    <div
      className="split-handle"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the conversation and the panes"
      aria-valuemin={MIN}
      aria-valuemax={MAX}
      aria-valuenow={percent}
      tabIndex={0}
      onPointerDown={drag}
      onKeyDown={key}
    />
  );
}
