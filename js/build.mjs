// Bundle each browser-drawn explorer (src/lNN_*.js) with what it uses of d3 into one ES module,
// helpers/explorers/browser/bundle/lNN_*.js, which the Python package ships and each widget loads.
//
//   node build.mjs           write the bundles
//   node build.mjs --check   build in memory and fail if a shipped bundle differs from its sources
//   node build.mjs l07 l09   only the bundles whose names start with these (while working on one lesson)
//
// Each bundle starts with the licences of the npm packages it contains (from the build's metafile).

import { readdirSync, readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(here, "..", "helpers", "explorers", "browser", "bundle");
const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const entries = readdirSync(join(here, "src")).filter((f) => /^l\d\d_.*\.js$/.test(f))
  .filter((f) => only.length === 0 || only.some((prefix) => f.startsWith(prefix))).sort();
const check = process.argv.includes("--check");

function licences(metafile) {
  const packages = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const found = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
    if (found) packages.add(found[1]);
  }
  return [...packages].sort().map((name) => {
    const meta = JSON.parse(readFileSync(join(here, "node_modules", name, "package.json"), "utf8"));
    const text = readFileSync(join(here, "node_modules", name, "LICENSE"), "utf8").trim();
    return `${name} ${meta.version} (${meta.license}):\n${text}`;
  });
}

let stale = [];
const notices = new Map(); // every npm package in any bundle -> its licence notice
for (const entry of entries) {
  const result = await esbuild.build({
    entryPoints: [join(here, "src", entry)],
    bundle: true,
    format: "esm",
    minify: true,
    legalComments: "none",
    target: "es2020",
    write: false,
    metafile: true,
  });
  const used = licences(result.metafile);
  for (const text of used) notices.set(text.split(":")[0], text);
  const notice = [
    `// Built by \`make bundle\` from js/src/${entry} (the course's MIT licence) and these npm packages:`,
    ...used.map((l) => l.replace(/^/gm, "// ")),
    "",
  ].join("\n");
  const code = notice + result.outputFiles[0].text;
  if (/<\/script|<!--/i.test(code)) throw new Error(`${entry}: the bundle cannot be inlined in a <script> element`);
  const target = join(outDir, entry);
  if (check) {
    if (!existsSync(target) || readFileSync(target, "utf8") !== code) stale.push(entry);
  } else {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(target, code);
    console.log(`${target}: ${(code.length / 1024).toFixed(1)} KB`);
  }
}
// the licences of the npm packages the bundles contain, shipped beside them (a License-File of the wheel)
const third = [
  "# Licences of the npm packages in these bundles",
  "",
  "The bundles in this folder are built by `make bundle` from the course's sources in `js/src/` (MIT, as the",
  "rest of the course's code) and these packages from npm, each under the licence printed here.",
  "",
  ...[...notices.keys()].sort().map((name) => `## ${name}\n\n${notices.get(name).split(":\n").slice(1).join(":\n")}\n`),
].join("\n");
const thirdPath = join(outDir, "THIRD-PARTY-LICENSES.md");
if (check) {
  if (!existsSync(thirdPath) || readFileSync(thirdPath, "utf8") !== third) stale.push("THIRD-PARTY-LICENSES.md");
} else if (only.length === 0) {
  writeFileSync(thirdPath, third); // a partial build leaves the list of every bundle's packages alone
}
const shipped = existsSync(outDir) ? readdirSync(outDir).filter((f) => f.endsWith(".js")) : [];
const orphans = only.length ? [] : shipped.filter((f) => !entries.includes(f));
if (check) {
  if (stale.length || orphans.length) {
    console.error(`the shipped bundles do not match js/src: ${[...stale, ...orphans].join(", ")}; run \`make bundle\``);
    process.exit(1);
  }
  console.log(`${entries.length} bundle(s) match their sources`);
}
