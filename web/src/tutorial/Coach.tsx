// The coach of a guided first game: a panel above the table that explains each thing when it
// first matters (lessons.ts, fired by suggest.ts's dueLessons), suggests a move with a short reason
// and lights it on the table as legal moves are lit. The learner makes the move. A lesson stays
// until the learner has made their next move (not in the middle of a several-step play), so it
// can be read; "Back to a lesson" shows one again; the lessons shown are remembered per game.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { GameConnection } from "../game/useGame";
import type { GameName, Lang, StateMessage } from "../protocol";
import { answeredForMe } from "../ui/AutoAnswer";
import { useTableMark } from "../ui/marks";
import { coachWords, lessonsOf, type Lesson } from "./lessons";
import { finishTutorial, rememberShown, shownLessons } from "./memory";
import { dueLessons, reasonFor, suggestMove, type Seen } from "./suggest";
import "./coach.css";

interface CoachProps {
  gameId: string;
  game: GameConnection;
  state: StateMessage;
  lang: Lang;
}

// The steps inside one play: a lesson does not give way in the middle of them.
const STEPS = new Set(["choose-target", "choose-gift", "choose-recipient", "choose-victim", "choose-destination"]);
const LIT = "tutor-suggested";

export function Coach({ gameId, game, state, lang }: CoachProps) {
  const w = useMemo(() => coachWords(lang), [lang]);
  const obs = state.observation;
  const gameName: GameName = obs.game;
  const lessons = lessonsOf(gameName);
  const [shown, setShown] = useState<string[]>(() => shownLessons(gameId));
  // a game resumed shows the lesson it was at (already counted as shown)
  const [current, setCurrent] = useState<string | null>(() => shown[shown.length - 1] ?? null);
  const [decidedAt, setDecidedAt] = useState<number | null>(null); // the move the learner decided with it open
  const [review, setReview] = useState<string | null>(null);
  const [collapsed, setCollapsed] = useState(false);
  const over = Boolean(obs.result);
  const answered = answeredForMe(state); // a question the server answers for the learner
  const kinds = useMemo(() => new Set(game.events.map((e) => e.kind)), [game.events]);
  const seen: Seen = { obs, legal: state.legal, kinds, facts: game.cards };

  // Open the next lesson once the current one has been read through a move of the learner's.
  const giveWay = (): void => {
    const due = dueLessons(seen, shown);
    const next = due[0];
    if (next === undefined) return;
    const more = [...shown, next];
    setShown(more);
    rememberShown(gameId, more);
    setCurrent(next);
    setDecidedAt(null);
    setReview(null);
  };
  useEffect(() => {
    const deciding = state.legal.length > 0 && !answered;
    const read = current === null || (decidedAt !== null && obs.move > decidedAt && !STEPS.has(obs.decision));
    if (read) giveWay();
    else if (decidedAt === null && deciding) setDecidedAt(obs.move);
    if (over) finishTutorial(gameId);
  }, [state, current]);

  const chosen = answered ? -1 : suggestMove(seen, current);
  const action = chosen >= 0 ? state.legal[chosen] : undefined;
  const label = chosen >= 0 ? state.text?.choices?.[chosen] || action?.text : undefined;

  // Light the suggested move where the table lights legal moves: its place, its hand card, its
  // button among the choices (among the picked card's uses too, which the table shows on its own).
  useTableMark(LIT, action?.text ?? null);

  const showing = lessons.find((l) => l.id === (review ?? current));
  const index = showing ? lessons.indexOf(showing) + 1 : 0;
  const final = lessons[lessons.length - 1];
  const ended = over && current === final?.id && review === null;
  const more = dueLessons(seen, shown).length > 0;

  if (collapsed) {
    return (
      <aside id="tutor" class="tutor collapsed" data-lesson={current ?? ""} aria-label={w("coach")}>
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
    <aside id="tutor" class={`tutor${review ? " reviewing" : ""}`} data-lesson={current ?? ""} data-showing={showing?.id ?? ""} lang={lang} aria-label={w("coach")} aria-live="polite">
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
          {ended ? <Summary lessons={lessons.filter((l) => shown.includes(l.id))} lang={lang} game={gameName} /> : null}
          {review ? (
            <button type="button" id="tutor-resume" class="ghost" onClick={() => setReview(null)}>
              ↩ {w("resume")}
            </button>
          ) : null}
          {!over ? (
            action && label ? (
              <p id="tutor-suggestion" class="tutor-suggestion" data-action={action.text}>
                <span class="tutor-try">{w("suggested")}:</span> <strong>{label}</strong> — {reasonFor(obs, action, lang)}
              </p>
            ) : (
              <p id="tutor-suggestion" class="tutor-suggestion dim">
                {w(answered ? "answered" : "waiting")}
              </p>
            )
          ) : null}
          {more && !review ? (
            <button type="button" id="tutor-next" class="ghost" onClick={giveWay}>
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
