// "Watch the replay" on a finished game's page: its replay from this viewer's seat (the token
// stays behind: once a game is over, every seat's view is open to anyone with its link).
import type { Translate } from "../i18n";
import { viewerParam } from "./frames";
import "./replay-link.css";

export function ReplayLink({ seat, t }: { seat: number | null; t: Translate }) {
  const parts = window.location.pathname.split("/").filter(Boolean);
  if (parts.length !== 2 || parts[0] !== "games") return null; // the replay page itself
  const href = `/games/${parts[1] ?? ""}/replay?viewer=${viewerParam(seat)}&step=0`;
  return (
    <a class="button ghost replay-link" id="replay-link" href={href}>
      {t("replayWatch")}
    </a>
  );
}
