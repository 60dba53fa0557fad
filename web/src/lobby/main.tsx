import { render } from "preact";
import "../style.css";
import { registerServiceWorker } from "../ui/install";
import { Lobby } from "./Lobby";

const root = document.getElementById("app");
if (root) render(<Lobby />, root);
registerServiceWorker();
