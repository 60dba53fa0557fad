// The form that creates a game: which game, how many players, who sits where (a person or a
// computer player), variants, the game's language and an optional turn timer (TimerChoice).
import { useEffect, useState } from "preact/hooks";
import type { Translate } from "../i18n";
import type { Catalog, CreateRequest, GameChoice, Lang, SeatChoice } from "../protocol";
import { TIMER_DEFAULT, TimerChoice, type TimerSetting, timerRequest } from "./TimerChoice";

interface CreateFormProps {
  lang: Lang;
  t: Translate;
  busy: boolean;
  catalog: Catalog | null; // null until the server named its games
  failed: boolean; // the catalog could not be had
  onCreate: (request: CreateRequest) => void;
}

// The seat kinds by their headings, in the catalog's order: the unheaded ones (a person, the
// levels) first, as the server lists them.
function seatGroups(seats: SeatChoice[]): [string | null, SeatChoice[]][] {
  const groups = new Map<string | null, SeatChoice[]>();
  for (const seat of seats) groups.set(seat.group, [...(groups.get(seat.group) ?? []), seat]);
  return [...groups];
}

export function CreateForm({ catalog, failed, t, ...props }: CreateFormProps) {
  const first = catalog?.games[0];
  if (catalog && first) return <GameForm catalog={catalog} first={first} t={t} {...props} />;
  return (
    <form id="create" class="panel create-form">
      <h2 class="box-title">{t("newGame")}</h2>
      {failed ? (
        <p class="refusal" role="alert">
          {t("catalogFailed")}
        </p>
      ) : (
        <p class="dim">{t("loading")}</p>
      )}
    </form>
  );
}

type GameFormProps = Omit<CreateFormProps, "failed"> & { catalog: Catalog; first: GameChoice };

function GameForm({ lang, t, busy, catalog, first, onCreate }: GameFormProps) {
  // "Play a real game" after a guided one names its game in the address (?game=…)
  const preset = new URLSearchParams(window.location.search).get("game");
  const [game, setGame] = useState(catalog.games.some((g) => g.name === preset) && preset ? preset : first.name);
  const chosen = catalog.games.find((g) => g.name === game) ?? first;
  const [fewest, most] = chosen.players;
  const [players, setPlayers] = useState(4);
  // A person in the first seat and a computer player of the middle level in the others, for the
  // largest table any game has.
  const computer = catalog.seats.find((s) => s.kind === "medium") ?? catalog.seats.find((s) => s.kind !== "human");
  const seatsNeeded = Math.max(...catalog.games.map((g) => g.players[1]));
  const [seats, setSeats] = useState<string[]>(() =>
    Array.from({ length: seatsNeeded }, (_, seat) => (seat === 0 ? "human" : (computer?.kind ?? "human"))),
  );
  const [variants, setVariants] = useState<string[]>([]);
  const [gameLang, setGameLang] = useState<Lang>(lang);
  useEffect(() => setGameLang(lang), [lang]); // the game speaks the lobby's language unless told

  const [timer, setTimer] = useState<TimerSetting>(TIMER_DEFAULT);
  const [coach, setCoach] = useState(false); // the coach for every person (each agrees at their seat)
  const count = Math.max(fewest, Math.min(players, most));
  const people = seats.slice(0, count).filter((kind) => kind === "human").length;

  const submit = (event: Event) => {
    event.preventDefault();
    onCreate({
      game: chosen.name,
      players: count,
      seats: seats.slice(0, count),
      variants: variants.filter((v) => chosen.variants.some((known) => known.id === v)),
      lang: gameLang,
      ...timerRequest(timer),
      ...(coach && people > 1 ? { coach: true } : {}),
    });
  };

  return (
    <form id="create" class="panel create-form" onSubmit={submit}>
      <h2 class="box-title">{t("newGame")}</h2>
      <fieldset class="game-pick">
        <legend>{t("game")}</legend>
        {catalog.games.map((g) => (
          <label class={`game-option${chosen.name === g.name ? " chosen" : ""}`}>
            <input type="radio" name="game" value={g.name} checked={chosen.name === g.name} onChange={() => setGame(g.name)} />
            <span class="game-option-name">{g.title}</span>
            <small>
              {g.players[0]}–{g.players[1]} {t("players")}
            </small>
          </label>
        ))}
      </fieldset>
      <div class="row">
        <label class="field">
          <span>{t("players")}</span>
          <select id="players" value={String(count)} onChange={(e) => setPlayers(Number((e.target as HTMLSelectElement).value))}>
            {Array.from({ length: most - fewest + 1 }, (_, i) => i + fewest).map((n) => (
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
                next[seat] = (e.target as HTMLSelectElement).value;
                setSeats(next);
              }}
            >
              {seatGroups(catalog.seats).map(([group, kinds]) => {
                const options = kinds.map((kind) => <option value={kind.kind}>{kind.label}</option>);
                return group === null ? options : <optgroup label={group}>{options}</optgroup>;
              })}
            </select>
          </label>
        ))}
        {/* what each level is, in a line each (a long label was cut by its select) */}
        <ul class="levels dim small" id="levels">
          {catalog.seats
            .filter((seat) => seat.about)
            .map((seat) => (
              <li data-kind={seat.kind}>
                <strong>{seat.label}</strong>: {seat.about}
              </li>
            ))}
        </ul>
      </fieldset>
      <fieldset class="variants" id="variants">
        <legend>{t("variants")}</legend>
        {chosen.variants.map((variant) => (
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
              {variant.label} <code>{variant.id}</code>
            </span>
          </label>
        ))}
      </fieldset>
      <TimerChoice setting={timer} onChange={setTimer} t={t} />
      {people > 1 ? (
        <label class="check" id="coach-for-everyone" title={t("coachForEveryoneHelp")}>
          <input type="checkbox" checked={coach} onChange={(e) => setCoach((e.target as HTMLInputElement).checked)} />
          <span>
            {t("coachForEveryone")} <small class="dim">{t("coachForEveryoneHelp")}</small>
          </span>
        </label>
      ) : null}
      <button type="submit" id="create-button" class="primary big" disabled={busy}>
        {busy ? t("creating") : t("create")}
      </button>
    </form>
  );
}
