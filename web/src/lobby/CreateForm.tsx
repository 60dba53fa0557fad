// The form that creates a game: which game, how many players, who sits where (a person or a
// computer player), variants, the game's language and an optional turn timer.
import { useEffect, useState } from "preact/hooks";
import type { Translate } from "../i18n";
import type { CreateRequest, GameName, Lang } from "../protocol";

const MAX_PLAYERS: Record<GameName, number> = { apokalypse: 6, apokerlypse: 4 };
const VARIANTS: Record<GameName, { id: string; en: string; de: string }[]> = {
  apokalypse: [
    { id: "ethos-balanced", en: "Balanced ethos cards", de: "Ausgewogene Gesinnungskarten" },
    { id: "ethos-orphans", en: "Discard orphaned cards after an Ethos change", de: "Verwaiste Karten nach Gesinnungswechsel abwerfen" },
    { id: "good-team", en: "The good win if one good player beats an evil one", de: "Die Guten gewinnen, wenn ein Guter einen Bösen übertrifft" },
    { id: "edition-2008", en: "2008 edition: shared ethos, best total wins", de: "Ausgabe 2008: gleiche Gesinnung, beste Summe gewinnt" },
    { id: "good-ties", en: "A tie in populaces goes to the good (proposal)", de: "Gleichstand der Bevölkerung zählt für die Guten (Vorschlag)" },
  ],
  apokerlypse: [
    { id: "short-table", en: "Short rules' points table", de: "Punktetabelle der Kurzregeln" },
    { id: "bonus-cap", en: "Card bonus at most 10", de: "Kartenbonus höchstens 10" },
    { id: "example-content", en: "Example card effects and faction abilities", de: "Beispiel-Karteneffekte und Fraktionsfähigkeiten" },
  ],
};
// The difficulty levels (``bots/levels.py``: easy = the heuristic with 40 % random moves, medium =
// the heuristic, hard = ISMCTS 300 iterations, expert = ISMCTS 1,500 iterations with ethos beliefs)
// and the players by their own names.
export type SeatKind = "human" | "easy" | "medium" | "hard" | "expert" | "heuristic" | "random" | "ismcts";

interface CreateFormProps {
  lang: Lang;
  t: Translate;
  busy: boolean;
  onCreate: (request: CreateRequest) => void;
}

export function CreateForm({ lang, t, busy, onCreate }: CreateFormProps) {
  const [game, setGame] = useState<GameName>("apokalypse");
  const [players, setPlayers] = useState(4);
  const [seats, setSeats] = useState<SeatKind[]>(["human", "medium", "medium", "medium", "medium", "medium"]);
  const [variants, setVariants] = useState<string[]>([]);
  const [gameLang, setGameLang] = useState<Lang>(lang);
  useEffect(() => setGameLang(lang), [lang]); // the game speaks the lobby's language unless told

  const [timed, setTimed] = useState(false);
  const [turn, setTurn] = useState(60);
  const [bank, setBank] = useState(120);
  const count = Math.min(players, MAX_PLAYERS[game]);

  const submit = (event: Event) => {
    event.preventDefault();
    onCreate({
      game,
      players: count,
      seats: seats.slice(0, count),
      variants: variants.filter((v) => VARIANTS[game].some((known) => known.id === v)),
      lang: gameLang,
      ...(timed ? { timer: { turn, bank } } : {}),
    });
  };

  return (
    <form id="create" class="panel create-form" onSubmit={submit}>
      <h2 class="box-title">{t("newGame")}</h2>
      <fieldset class="game-pick">
        <legend>{t("game")}</legend>
        {(["apokalypse", "apokerlypse"] as const).map((g) => (
          <label class={`game-option${game === g ? " chosen" : ""}`}>
            <input type="radio" name="game" value={g} checked={game === g} onChange={() => setGame(g)} />
            <span class="game-option-name">{g === "apokalypse" ? "Apokalypse" : "Apokerlypse"}</span>
            <small>{g === "apokalypse" ? "2–6" : "2–4"} {t("players")}</small>
          </label>
        ))}
      </fieldset>
      <div class="row">
        <label class="field">
          <span>{t("players")}</span>
          <select id="players" value={String(count)} onChange={(e) => setPlayers(Number((e.target as HTMLSelectElement).value))}>
            {Array.from({ length: MAX_PLAYERS[game] - 1 }, (_, i) => i + 2).map((n) => (
              <option value={String(n)}>{n}</option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>{t("language")}</span>
          <select id="lang" value={gameLang} onChange={(e) => setGameLang((e.target as HTMLSelectElement).value === "de" ? "de" : "en")}>
            <option value="en">English</option>
            <option value="de">Deutsch</option>
          </select>
        </label>
      </div>
      <fieldset id="seats" class="seats">
        <legend>{t("seats")}</legend>
        {Array.from({ length: count }, (_, seat) => (
          <label class="seat-row">
            <span class="seat-number">{seat + 1}</span>
            <select
              data-seat={seat}
              value={seats[seat]}
              onChange={(e) => {
                const next = [...seats];
                next[seat] = (e.target as HTMLSelectElement).value as SeatKind;
                setSeats(next);
              }}
            >
              <option value="human">{t("human")}</option>
              <option value="easy">{t("levelEasy")}</option>
              <option value="medium">{t("levelMedium")}</option>
              <option value="hard">{t("levelHard")}</option>
              <option value="expert">{t("levelExpert")}</option>
              <optgroup label={t("computerOther")}>
                <option value="heuristic">{t("computerHeuristic")}</option>
                <option value="random">{t("computerRandom")}</option>
                <option value="ismcts">{t("computerSearch")}</option>
              </optgroup>
            </select>
          </label>
        ))}
      </fieldset>
      <fieldset class="variants" id="variants">
        <legend>{t("variants")}</legend>
        {VARIANTS[game].map((variant) => (
          <label class="check">
            <input
              type="checkbox"
              value={variant.id}
              checked={variants.includes(variant.id)}
              onChange={(e) => {
                const on = (e.target as HTMLInputElement).checked;
                setVariants(on ? [...variants, variant.id] : variants.filter((v) => v !== variant.id));
              }}
            />
            <span>
              {variant[lang]} <code>{variant.id}</code>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset class="timer" id="timer">
        <legend>{t("timer")}</legend>
        <label class="check">
          <input type="checkbox" id="timer-on" checked={timed} onChange={(e) => setTimed((e.target as HTMLInputElement).checked)} />
          <span>{t("timerOn")}</span>
        </label>
        {timed ? (
          <div class="row">
            <label class="field">
              <span>{t("turnSeconds")}</span>
              <input type="number" id="timer-turn" min={5} max={3600} value={turn} onInput={(e) => setTurn(Math.max(1, Number((e.target as HTMLInputElement).value) || 1))} />
            </label>
            <label class="field">
              <span>{t("bankSeconds")}</span>
              <input type="number" id="timer-bank" min={0} max={36000} value={bank} onInput={(e) => setBank(Math.max(0, Number((e.target as HTMLInputElement).value) || 0))} />
            </label>
          </div>
        ) : null}
        <p class="dim small">{t("timerHelp")}</p>
      </fieldset>
      <button type="submit" id="create-button" class="primary big" disabled={busy}>
        {busy ? t("creating") : t("create")}
      </button>
    </form>
  );
}
