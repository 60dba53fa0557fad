// The coach of a guided first game: a panel above the table that explains each thing when it
// first matters (lessons.ts), suggests a move with a short reason and lights it on the table as
// legal moves are lit. Which lessons have opened, which are due and the move it suggests are the
// server's (server/tutorial/tutor.py), sent in the learner's own state message and worked out from
// what this seat may know, the way the prepared deals were chosen: the page only shows them, so
// the two can never disagree. A lesson stays until the learner has made their next move (not in
// the middle of a several-step play); "Got it" asks the server for the next one due, at once;
// "Back to a lesson" shows an earlier one again, on this page only.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { GameConnection } from "../game/useGame";
import { gameOf } from "../games";
import type { GameName, Lang, StateMessage } from "../protocol";
import { useTableMark } from "../ui/marks";
import { coachWords, type Lesson } from "./lessons";
import { finishTutorial } from "./memory";
import "./coach.css";

interface CoachProps {
  gameId: string;
  game: GameConnection;
  state: StateMessage;
  lang: Lang;
}

const LIT = "tutor-suggested";

export function Coach({ gameId, game, state, lang }: CoachProps) {
  const w = useMemo(() => coachWords(lang), [lang]);
  const obs = state.observation;
  const entry = gameOf(obs.game);
  const view = state.tutorial ?? null; // null: not this game's learner (or no guided game)
  const [review, setReview] = useState<string | null>(null);
  const [collapsed, setCollapsed] = useState(false);
  const over = Boolean(obs.result);
  const shown = view?.lessons ?? [];
  const current = shown[shown.length - 1] ?? null;

  useEffect(() => {
    if (over) finishTutorial(gameId);
  }, [over]);
  // A lesson that opens ends a look back at an earlier one.
  useEffect(() => setReview(null), [current]);

  const chosen = view?.suggestion ?? null;
  const action = chosen === null ? undefined : state.legal[chosen];
  const label = chosen === null ? undefined : state.text?.choices?.[chosen] || action?.text;
  // The server names no move for a question it answers for the learner.
  const answered = !over && state.legal.length > 0 && chosen === null;

  // Light the suggested move where the table lights legal moves: its place, its hand card, its
  // button among the choices (among the picked card's uses too, which the table shows on its own).
  useTableMark(LIT, action?.text ?? null);

  const guided = entry.tutorial;
  if (view === null || guided === null) return null;
  const lessons = guided.lessons;
  const showing = lessons.find((l) => l.id === (review ?? current));
  const index = showing ? lessons.indexOf(showing) + 1 : 0;
  const final = lessons[lessons.length - 1];
  const ended = over && current === final?.id && review === null;
  const more = view.due.length > 0;
  const readOn = (): void => {
    setReview(null);
    game.readOn();
  };

  if (collapsed) {
    return (
      <aside id="tutor" class="tutor collapsed" data-lesson={current ?? ""} data-lessons={shown.join(" ")} aria-label={w("coach")}>
        <button type="button" class="ghost" id="tutor-expand" onClick={() => setCollapsed(false)}>
          {w("expand")}
        </button>
        {showing ? <strong class="tutor-line">{showing.text[lang].title}</strong> : null}
        {label ? (
          <span class="tutor-line">
            {w("suggested")}: <strong>{label}</strong>
          </span>
        ) : null}
      </aside>
    );
  }
  return (
    <aside
      id="tutor"
      class={`tutor${review ? " reviewing" : ""}`}
      data-lesson={current ?? ""}
      data-lessons={shown.join(" ")}
      data-showing={showing?.id ?? ""}
      lang={lang}
      aria-label={w("coach")}
      aria-live="polite"
    >
      <header class="tutor-head">
        <span class="tutor-mark" aria-hidden="true">
          ?
        </span>
        <strong>{w("coach")}</strong>
        {showing ? <span class="tutor-count">{w("lessonOf", { n: index, total: lessons.length })}</span> : null}
        <span class="spacer" />
        {shown.length > 0 ? (
          <select
            id="tutor-lessons"
            class="tutor-lessons"
            aria-label={w("backTo")}
            value=""
            onChange={(event) => {
              const id = (event.target as HTMLSelectElement).value;
              if (id) setReview(id);
            }}
          >
            <option value="">{w("backTo")}</option>
            {lessons
              .filter((l) => shown.includes(l.id))
              .map((l) => (
                <option value={l.id}>{l.text[lang].title}</option>
              ))}
          </select>
        ) : null}
        <button type="button" class="ghost" id="tutor-collapse" onClick={() => setCollapsed(true)}>
          {w("collapse")}
        </button>
      </header>
      <div class="tutor-main">
        {showing ? <LessonView lesson={showing} lang={lang} /> : <div />}
        <div class="tutor-act">
          {ended ? <Summary lessons={lessons.filter((l) => shown.includes(l.id))} lang={lang} game={entry.name} /> : null}
          {review ? (
            <button type="button" id="tutor-resume" class="ghost" onClick={() => setReview(null)}>
              ↩ {w("resume")}
            </button>
          ) : null}
          {!over ? (
            action && label ? (
              <p id="tutor-suggestion" class="tutor-suggestion" data-action={action.text}>
                <span class="tutor-try">{w("suggested")}:</span> <strong>{label}</strong> — {guided.reason(obs, action, lang)}
              </p>
            ) : (
              <p id="tutor-suggestion" class="tutor-suggestion dim">
                {w(answered ? "answered" : "waiting")}
              </p>
            )
          ) : null}
          {more && !review ? (
            <button type="button" id="tutor-next" class="ghost" onClick={readOn}>
              {w("gotIt")} ▸
            </button>
          ) : null}
        </div>
      </div>
    </aside>
  );
}

function LessonView({ lesson, lang }: { lesson: Lesson; lang: Lang }) {
  const text = lesson.text[lang];
  return (
    <div class="tutor-lesson" data-lesson-id={lesson.id}>
      <h2 id="tutor-title" class="tutor-title">
        {text.title}
      </h2>
      {text.body.map((line) => (
        <p>{line}</p>
      ))}
      {text.others ? <p class="tutor-others">{text.others}</p> : null}
      <p class="tutor-rules">
        <small>{lesson.rules.join(" · ")}</small>
      </p>
    </div>
  );
}

function Summary({ lessons, lang, game }: { lessons: Lesson[]; lang: Lang; game: GameName }) {
  const w = coachWords(lang);
  return (
    <div class="tutor-summary" id="tutor-summary">
      <p>
        <strong>{w("done")}</strong> {w("summary")}:
      </p>
      <ul>
        {lessons.map((l) => (
          <li>{l.text[lang].title}</li>
        ))}
      </ul>
      <a class="button" id="tutor-play-real" href={`/?game=${game}`}>
        {w("playReal")}
      </a>
    </div>
  );
}
