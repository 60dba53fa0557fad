import { render } from "preact";
import "../style.css";
import { registerServiceWorker } from "../ui/install";
import { ReplayPage } from "./ReplayPage";

// /games/{id}/replay: a finished game's replay; /replay: a record file opened in the page.
const parts = window.location.pathname.split("/").filter(Boolean);
const gameId = parts.length === 3 && parts[0] === "games" && parts[2] === "replay" ? decodeURIComponent(parts[1] ?? "") : null;
const root = document.getElementById("app");
if (root) render(<ReplayPage game={gameId} />, root);
registerServiceWorker();
