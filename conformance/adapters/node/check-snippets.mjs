#!/usr/bin/env node
// Runs the two JavaScript snippets of spec-cases/README.md ("Reading the vectors
// from JavaScript"), so the guidance cannot rot:
//   node check-snippets.mjs SUITE_PARENT_DIR
// - the lossless-json snippet as printed; each console.log must print what its
//   trailing comment says;
// - the JSON.parse-with-source snippet, with two lines appended that read and write
//   a vector; skipped, saying so, when this Node.js lacks the feature even behind
//   its flag.
// Exits 1 when a snippet is missing or prints something else.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(process.argv[2] ?? ".");
const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(root, "spec-cases", "README.md"), "utf8");
const section = readme.split("## Reading the vectors from JavaScript")[1]?.split("\n## ")[0] ?? "";
const blocks = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]);
const problems = [];
if (blocks.length !== 2) problems.push(`expected 2 js blocks in the section, found ${blocks.length}`);

// A scratch folder that resolves lossless-json from this adapter's node_modules.
const scratch = mkdtempSync(join(here, ".snippets-"));
symlinkSync(join(here, "node_modules"), join(scratch, "node_modules"), "dir");
function runSnippet(name, code, flags) {
  const file = join(scratch, `${name}.mjs`);
  writeFileSync(file, code);
  return execFileSync(process.execPath, [...flags, file], { cwd: root, encoding: "utf8" });
}
function compare(name, code, output) {
  const expected = [...code.matchAll(/^console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);
  const actual = output.trimEnd().split("\n");
  if (expected.length === 0 || JSON.stringify(actual) !== JSON.stringify(expected)) {
    problems.push(`${name}: printed ${JSON.stringify(actual)}, its comments say ${JSON.stringify(expected)}`);
  } else {
    console.log(`${name}: ${actual.length} lines as documented`);
  }
}

try {
  if (blocks[0] !== undefined) compare("lossless-json snippet", blocks[0], runSnippet("lossless", blocks[0], []));
  if (blocks[1] !== undefined) {
    const probe = 'JSON.parse("1", (k, v, c) => { if (c?.source !== "1") process.exit(3); })';
    const flagsThatWork = [[], ["--harmony-json-parse-with-source"]].find((flags) => {
      try {
        execFileSync(process.execPath, [...flags, "-e", probe], { stdio: "ignore" });
        return true;
      } catch {
        return false;
      }
    });
    if (flagsThatWork === undefined) {
      console.log(`JSON.parse-with-source snippet: skipped, Node.js ${process.version} lacks the feature`);
    } else {
      const usage = [
        'const [testCase] = read(\'{"cases": [{"shape": [18446744073709551615, 2.0]}]}\').cases;',
        "console.log(typeof testCase.shape[0], testCase.shape[0] === 2n ** 64n - 1n, typeof testCase.shape[1]); // bigint true number",
        "console.log(write(testCase)); // {\"shape\":[18446744073709551615,2]}",
      ].join("\n");
      const code = `${blocks[1]}\n${usage}\n`;
      compare(`JSON.parse-with-source snippet (${flagsThatWork.join(" ") || "no flag"})`, code, runSnippet("native", code, flagsThatWork));
    }
  }
} catch (error) {
  problems.push(`a snippet failed to run: ${error.message}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
for (const problem of problems) console.error(`FAIL ${problem}`);
process.exit(problems.length === 0 ? 0 : 1);
