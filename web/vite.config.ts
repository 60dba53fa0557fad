// Three pages (the lobby, the game page and the replay page), built into the Python package so that
// `apokalypse serve` serves them (src/apokalypse/server/pages.py): HTML at the dist root, every
// asset under /static/. Nothing is loaded from elsewhere at run time.
import { writeFileSync } from "node:fs";
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

export default defineConfig({
  plugins: [preact(), precompress()],
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
