// Generates the browser's wire types from the server's JSON Schemas (../schema/*.schema.json):
// one module per schema in src/wire/ (git-ignored), so that the types can never drift from what
// the Python side sends. Run by `npm run gen` (and so by `npm run build`).
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";

const here = dirname(fileURLToPath(import.meta.url));
const schemaDir = join(here, "..", "..", "schema");
const outDir = join(here, "..", "src", "wire");

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
const files = (await readdir(schemaDir)).filter((f) => f.endsWith(".schema.json")).sort();
const modules = [];
for (const file of files) {
  const schema = JSON.parse(await readFile(join(schemaDir, file), "utf8"));
  const name = basename(file, ".schema.json");
  const ts = await compile(schema, `${name}-wire`, {
    bannerComment: `// Generated from schema/${file} by web/scripts/gen-wire.mjs: do not edit.`,
    unreachableDefinitions: true, // every $defs entry becomes a named type
    additionalProperties: false,
    format: true,
    strictIndexSignatures: true,
  });
  await writeFile(join(outDir, `${name}.ts`), ts);
  modules.push(name);
}
console.log(`wire types: ${modules.map((m) => `src/wire/${m}.ts`).join(", ")}`);
