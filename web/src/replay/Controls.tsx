// The replay's controls: first, previous, play/pause with a speed, next, last, a slider over
// every step, the step shown, and the keyboard (arrows, Home/End, space) anywhere on the page
// but in a field of its own.
import { useLayoutEffect, useState } from "preact/hooks";
import type { Translate } from "../i18n";
import type { Replay } from "./frames";

const SPEEDS = [1, 2, 4, 8]; // steps a second

interface ControlsProps {
  replay: Replay;
  step: number;
  go: (step: number, stepped?: boolean) => void;
  t: Translate;
}

export function Controls({ replay, step, go, t }: ControlsProps) {
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(2);
  const last = replay.steps;

  // A layout effect: pausing clears the next step's timer in the same commit, so a timer that
  // would fire before a deferred effect ran cannot step once more after the pause.
  useLayoutEffect(() => {
    if (!playing) return;
    if (step >= last) {
      setPlaying(false);
      return;
    }
    const timer = window.setTimeout(() => go(step + 1), 1000 / speed);
    return () => window.clearTimeout(timer);
  }, [playing, step, speed, last]);

  // Also in the commit: a key pressed right after a step must step from the step drawn.
  useLayoutEffect(() => {
    const key = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      // A field handles its own keys (the slider its arrows, Home and End), a dialog too, and
      // a button or link its space; the slider's space plays, as everywhere else.
      if (target?.closest("select, textarea, dialog")) return;
      if (target?.matches("input:not(#replay-slider)")) return;
      if (target?.id === "replay-slider" && event.key !== " ") return;
      if (target?.closest("button, a") && event.key === " ") return;
      const moves: Record<string, () => void> = {
        ArrowLeft: () => go(step - 1, false),
        ArrowRight: () => go(step + 1, true),
        Home: () => go(0),
        End: () => go(last),
        " ": () => setPlaying((p) => !p && step < last),
      };
      const move = moves[event.key];
      if (move === undefined) return;
      event.preventDefault();
      if (event.key !== " ") setPlaying(false);
      move();
    };
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, [step, last, go]);

  const stop = (then: () => void) => () => {
    setPlaying(false);
    then();
  };
  return (
    <section class="replay-controls panel" id="replay-controls" aria-label={t("replayControls")}>
      <div class="replay-buttons">
        <button type="button" id="replay-first" onClick={stop(() => go(0))} disabled={step === 0} aria-label={t("replayFirst")} title={t("replayFirst")}>
          |◀
        </button>
        <button type="button" id="replay-prev" onClick={stop(() => go(step - 1))} disabled={step === 0} aria-label={t("replayPrevious")} title={t("replayPrevious")}>
          ◀
        </button>
        <button
          type="button"
          id="replay-play"
          class="primary"
          onClick={() => setPlaying((p) => !p && step < last)}
          disabled={step >= last && !playing}
          aria-pressed={playing}
        >
          {playing ? t("replayPause") : t("replayPlay")}
        </button>
        <button type="button" id="replay-next" onClick={stop(() => go(step + 1, true))} disabled={step >= last} aria-label={t("replayNext")} title={t("replayNext")}>
          ▶
        </button>
        <button type="button" id="replay-last" onClick={stop(() => go(last))} disabled={step >= last} aria-label={t("replayLast")} title={t("replayLast")}>
          ▶|
        </button>
        <label class="replay-speed">
          <span class="sr-only">{t("replaySpeed")}</span>
          <select id="replay-speed" value={String(speed)} onChange={(e) => setSpeed(Number((e.target as HTMLSelectElement).value))} title={t("replaySpeed")}>
            {SPEEDS.map((s) => (
              <option value={String(s)}>{`${s}×`}</option>
            ))}
          </select>
        </label>
        <span class="replay-step" id="replay-step" aria-live="polite">
          {t("replayStep", { step, steps: last })}
        </span>
      </div>
      <input
        type="range"
        id="replay-slider"
        class="replay-slider"
        min={0}
        max={last}
        step={1}
        value={step}
        aria-label={t("replayScrub")}
        onInput={(e) => {
          setPlaying(false);
          go(Number((e.target as HTMLInputElement).value));
        }}
      />
    </section>
  );
}
