// Four pages (the lobby, the game page, the replay page and the offline page), built into the Python
// package so that `apokalypse serve` serves them (src/apokalypse/server/pages.py): HTML at the dist
// root, every asset under /static/ (public/: the app's manifest and icons), the service worker at
// /sw.js. Nothing is loaded from elsewhere at run time.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import preact from "@preact/preset-vite";
import { defineConfig, type Plugin } from "vite";

// What is worth compressing (images other than SVG are compressed already), and below what size
// a file is sent as it is (the header and a request for it cost more than the bytes saved).
const COMPRESSIBLE = /\.(js|css|svg|html|json|txt|map)$/;
const TINY = 512;

/** Each compressible file of the build written beside it gzipped (`.gz`) and brotli-compressed
 * (`.br`), at their strongest once here rather than on every request: the server sends the one a
 * browser accepts (server/precompressed.py). A variant no smaller than the file is not written. */
function precompress(): Plugin {
  return {
    name: "apokalypse-precompress",
    apply: "build",
    writeBundle(options, bundle) {
      const dir = options.dir ?? "";
      for (const [name, item] of Object.entries(bundle)) {
        if (!COMPRESSIBLE.test(name)) continue;
        const data = Buffer.from(item.type === "chunk" ? item.code : item.source);
        if (data.length < TINY) continue;
        const variants: [string, Buffer][] = [
          [".gz", gzipSync(data, { level: 9 })],
          [
            ".br",
            brotliCompressSync(data, {
              params: {
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
          ],
        ];
        for (const [suffix, packed] of variants) {
          if (packed.length < data.length) writeFileSync(join(dir, name + suffix), packed);
        }
      }
    },
  };
}

/** The service worker (web/sw/sw.js) written to the build's root as `sw.js` (the server answers it
 * at /sw.js), with the build's hashed files to keep and a name for this build's cache: a hash of
 * those names, so that a new build's worker replaces the old one and drops its cache. */
function serviceWorker(): Plugin {
  return {
    name: "apokalypse-service-worker",
    apply: "build",
    writeBundle(options, bundle) {
      const kept = Object.keys(bundle)
        .filter((name) => name.startsWith("assets/") && !name.endsWith(".map"))
        .sort()
        .map((name) => `/static/${name}`);
      kept.push("/static/icons/icon-192.png"); // the offline page's
      const build = createHash("sha256").update(kept.join("\n")).digest("hex").slice(0, 12);
      const source = readFileSync(resolve(__dirname, "sw/sw.js"), "utf8")
        .replace("__BUILD__", build)
        .replace("__ASSETS__", JSON.stringify(kept));
      writeFileSync(join(options.dir ?? "", "sw.js"), source);
    },
  };
}

export default defineConfig({
  plugins: [preact(), precompress(), serviceWorker()],
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
        offline: resolve(__dirname, "offline.html"),
      },
    },
  },
});
