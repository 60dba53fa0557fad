// The browser's registry of games: everything a page needs of one game, looked up by the game's
// name (an observation's `game`, a summary's, a replay's). No other module branches on a game's
// name (tests/test_web_registry.py fails on one), so a game is added to the browser here, beside
// its own folder of components; the games named here are the server's registry's
// (engine/registry.py), which the same test checks, and `Record<GameName, …>` makes the type
// checker ask for an entry for every game the wire schema has.
import type { ComponentType } from "preact";
import { ApokalypsePage } from "./apokalypse/ApokalypsePage";
import { CardFace } from "./apokalypse/Card";
import { ApokerlypsePage, PlayingCard } from "./apokerlypse/ApokerlypsePage";
import type { GameConnection } from "./game/useGame";
import type { Translate } from "./i18n";
import type { ApokalypseObservation, ApokalypseState, ApokerlypseState, CardFacts, GameName, Lang, Observation, StateMessage } from "./protocol";
import { APOKALYPSE_LESSONS, APOKERLYPSE_LESSONS, apokalypseReason, apokerlypseReason, type CoachWord, type Lesson, type Reason } from "./tutorial/lessons";

/** What a game's table is given, on the game page and on the replay page alike. */
export interface TableProps {
  game: GameConnection;
  state: StateMessage; // always a state of this entry's game
  lang: Lang;
  t: Translate;
  name: (seat: number) => string;
  openRules: (card?: string) => void; // the rules dialog, at a card's help
}

export interface CardPictureProps {
  code: string;
  facts: Record<string, CardFacts>;
}

/** A game's guided first game in the browser: its lessons (the server says which opens when),
 * why each suggested move is good, and the lobby's line about it. */
export interface Guided {
  lessons: Lesson[];
  reason: Reason;
  help: CoachWord;
}

export interface GameEntry {
  name: GameName;
  title: string; // the brand in the top bar, the page's title
  Table: ComponentType<TableProps>;
  CardPicture: ComponentType<CardPictureProps>; // a card as the rules dialog pictures it
  TopStats: ComponentType<{ obs: Observation; t: Translate }> | null; // beside the move in the top bar
  // How many populaces one side of a seat's display holds now (what happened.ts marks when an
  // event hits the outermost one); null for a game without displays.
  populaces: ((obs: Observation, seat: number, side: "good" | "evil") => number | null) | null;
  tutorial: Guided | null;
}

// Each entry reads its own game's state only: the casts say which game's types that is.
export const GAMES: Record<GameName, GameEntry> = {
  apokalypse: {
    name: "apokalypse",
    title: "Apokalypse",
    Table: ({ state, ...rest }) => <ApokalypsePage state={state as ApokalypseState} {...rest} />,
    CardPicture: ({ code, facts }) => <CardFace code={code} facts={facts} size="hand" />,
    TopStats: ({ obs, t }) => (
      <span class="top-stat">
        {t("round")} <strong>{(obs as ApokalypseObservation).round}</strong>
      </span>
    ),
    populaces: (obs, seat, side) => (obs as ApokalypseObservation).displays[seat]?.[side].earth.length ?? null,
    tutorial: { lessons: APOKALYPSE_LESSONS, reason: apokalypseReason, help: "learnHelp" },
  },
  apokerlypse: {
    name: "apokerlypse",
    title: "Apokerlypse",
    Table: ({ game, state, t, name, openRules }) => <ApokerlypsePage game={game} state={state as ApokerlypseState} t={t} name={name} openRules={openRules} />,
    CardPicture: ({ code, facts }) => <PlayingCard code={code} facts={facts} />,
    TopStats: null,
    populaces: null,
    tutorial: { lessons: APOKERLYPSE_LESSONS, reason: apokerlypseReason, help: "learnHelpPoker" },
  },
};

/** Every game, in the registry's order (the first is the one a page shows before it knows). */
export const GAME_LIST: GameEntry[] = Object.values(GAMES);

/** The entry of the game named ``name``; before a page knows its game (or for a name it does not
 * know), the first, so that the page has a brand to show meanwhile. */
export function gameOf(name: string | null | undefined): GameEntry {
  const found = name === null || name === undefined ? undefined : (GAMES as Record<string, GameEntry | undefined>)[name];
  return found ?? (GAME_LIST[0] as GameEntry);
}
