// The name this person goes by at a game: a remembered one is sent when a seat has none yet (a
// seat's name is kept with the game), and by a spectator on each connection (theirs is kept with
// that connection only).
import { useEffect, useRef } from "preact/hooks";
import type { GameConnection } from "../game/useGame";
import { rememberedName } from "./lines";

export function useRememberedName(game: GameConnection, seat: number | null): void {
  const sent = useRef(false); // on this connection
  const connected = game.connection === "connected" && game.state !== null;
  const chosen = seat === null ? null : (game.state?.seats[seat]?.name ?? null);
  useEffect(() => {
    if (!connected) {
      sent.current = false;
      return;
    }
    const name = rememberedName();
    if (name === null || sent.current || chosen !== null) return;
    sent.current = game.rename(name);
  }, [connected, chosen]);
}
