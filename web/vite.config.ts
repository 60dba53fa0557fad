// Three pages (the lobby, the game page and the replay page), built into the Python package so that
// `apokalypse serve` serves them (src/apokalypse/server/pages.py): HTML at the dist root, every
// asset under /static/. Nothing is loaded from elsewhere at run time.
import { resolve } from "node:path";
import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [preact()],
  base: "/static/",
  build: {
    outDir: resolve(__dirname, "../src/apokalypse/web/dist"),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    rollupOptions: {
      input: {
        lobby: resolve(__dirname, "lobby.html"),
        game: resolve(__dirname, "game.html"),
        replay: resolve(__dirname, "replay.html"),
      },
    },
  },
});
