import { render } from "preact";
import "../style.css";
import { registerServiceWorker } from "../ui/install";
import { GamePage } from "./GamePage";

// /games/{id}?token=…: the id from the path, the seat's token (if any) from the query.
const gameId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop() ?? "");
const token = new URLSearchParams(window.location.search).get("token");
const root = document.getElementById("app");
if (root) render(<GamePage gameId={gameId} token={token} />, root);
registerServiceWorker();
