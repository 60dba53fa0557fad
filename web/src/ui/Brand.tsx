// The page's brand in its top bar: the game's mark and title, a link home (the game page and
// the replay page show the same).
import type { GameEntry } from "../games";

export function Brand({ game }: { game: GameEntry }) {
  return (
    <a href="/" class="brand" id="home-link">
      <span class="brand-mark" aria-hidden="true">
        ✝
      </span>
      {game.title}
    </a>
  );
}
