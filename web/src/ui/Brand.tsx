// The page's brand in its top bar: the game's mark and title, a link home (the game page and
// the replay page show the same).
import type { GameName } from "../protocol";

export const GAME_TITLE: Record<GameName, string> = { apokalypse: "Apokalypse", apokerlypse: "Apokerlypse" };

export function Brand({ game }: { game: GameName }) {
  return (
    <a href="/" class="brand" id="home-link">
      <span class="brand-mark" aria-hidden="true">
        ✝
      </span>
      {GAME_TITLE[game]}
    </a>
  );
}
