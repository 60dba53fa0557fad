import { render } from "preact";
import "../style.css";
import { registerServiceWorker } from "../ui/install";
import { gameLink, savedGames } from "../storage";
import { GamePage } from "./GamePage";

// /games/{id}?token=…: the id from the path, the seat's token (if any) from the query.
const gameId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop() ?? "");
const params = new URLSearchParams(window.location.search);
// ?seat=N (a notification's click: it names the seat, never its key): the key "my games" keeps
// for that seat of this game, and the page's address becomes the seat's own link.
const seat = params.get("seat");
const kept = seat === null ? undefined : savedGames().find((g) => g.id === gameId && String(g.seat) === seat)?.token;
if (kept) window.history.replaceState(null, "", gameLink(gameId, kept));
const token = params.get("token") ?? kept ?? null;
const root = document.getElementById("app");
if (root) render(<GamePage gameId={gameId} token={token} />, root);
registerServiceWorker();
