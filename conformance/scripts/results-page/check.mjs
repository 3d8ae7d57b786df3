#!/usr/bin/env node
// Checks the HTML results page in a real headless browser (Debian's chromium,
// driven by playwright-core):
//   node check.mjs --page PAGE.html --screenshot SHOT.png RUN.jsonl [RUN2.jsonl ...]
// The expected matrix is worked out here from the JSON-lines files themselves, not
// from the page: one row per clause that has a case (its first clause), one column
// per file, in the order given, and each cell's state from the case outcomes.
// Fails on any console error, page error or network request, on a missing or extra
// row or column, on column titles that are not distinct, on a cell without its word
// label, on a cell whose state differs, when a failing case's id is not in its
// cell's details, when the verdicts are not above the matrix (one per file, none
// PASSED for a run in which no must case ran), and when the title's code is smaller
// than the title. Writes a screenshot.
// Closing line: "results-page: N passed, M failed".
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  if (at < 0 || at + 1 >= args.length) throw new Error(`missing ${name} VALUE`);
  return args.splice(at, 2)[1];
};
const page = resolve(option("--page"));
const screenshot = resolve(option("--screenshot"));
const runs = args;
if (runs.length === 0) throw new Error("give the JSON-lines files the page was rendered from");

// How a case is counted, as conformance/REPORTS.md says; a wrong answer that does
// not break the run (level should or interpretation) is "differs", not "fail".
function status(c) {
  const listed = c.known_outcome;
  if (listed && (listed === c.outcome || c.outcome === "skip")) return "known";
  if (c.outcome === "pass") return listed ? "unexpected-pass" : "pass";
  if (c.outcome === "fail" && !c.breaks_run) return "differs";
  return c.outcome;
}
function stateOf(statuses) {
  if (statuses.some((s) => ["fail", "error", "crash", "unexpected-pass"].includes(s))) return "fail";
  if (statuses.includes("differs")) return "differs";
  if (statuses.includes("known")) return "known";
  if (statuses.includes("pass")) return "pass";
  if (statuses.includes("skip")) return "skip";
  return "none";
}

const expected = new Map(); // clause -> one array of statuses per run
const failing = []; // [column, clause, id] of one case that did not pass, per run
const untested = []; // per run: whether no must case ran (none, or every one skipped)
runs.forEach((path, column) => {
  const lines = readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  untested.push(!lines.some((l) => l.type === "case" && l.level === "must" && l.outcome !== "skip"));
  let firstFailing = null;
  for (const c of lines.filter((l) => l.type === "case")) {
    const clause = c.clauses[0] ?? "(no clause)";
    if (!expected.has(clause)) expected.set(clause, runs.map(() => []));
    const s = status(c);
    expected.get(clause)[column].push(s);
    if (s !== "pass" && firstFailing === null) firstFailing = [column, clause, c.id];
  }
  if (firstFailing) failing.push(firstFailing);
});

let passed = 0;
const problems = [];
const check = (ok, what) => (ok ? passed++ : problems.push(what));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
try {
  const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  tab.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()}`));
  tab.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
  tab.on("request", (r) => r.url() !== pathToFileURL(page).href && errors.push(`request: ${r.url()}`));
  await tab.goto(pathToFileURL(page).href, { waitUntil: "load" });

  const table = tab.locator("table#results");
  check((await table.count()) === 1, "the page has no table#results");
  check(((await table.locator("caption").textContent()) ?? "").trim().length > 0, "the table has no caption");

  const headers = await table.locator("thead th[scope=col]").allTextContents();
  check(headers.length === runs.length + 1, `${headers.length - 1} implementation columns, ${runs.length} expected`);
  check(new Set(headers).size === headers.length, `column titles are not distinct: ${headers.join(" | ")}`);

  // The verdicts first: above the matrix, one per file; no PASSED where no must case ran.
  const verdicts = await tab.locator("#verdicts li.verdict").allTextContents();
  check(verdicts.length === runs.length, `${verdicts.length} verdicts, ${runs.length} expected`);
  const above = await tab.evaluate(() => {
    const list = document.querySelector("#verdicts");
    const matrix = document.querySelector("table#results");
    return Boolean(list && matrix && list.getBoundingClientRect().bottom <= matrix.getBoundingClientRect().top);
  });
  check(above, "the verdicts are not above the matrix");
  verdicts.forEach((verdict, column) => {
    if (!untested[column]) return;
    check(!verdict.includes("PASSED"), `column ${column + 1}: PASSED although no must case ran`);
  });
  const sizes = await tab.evaluate(() => {
    const title = document.querySelector("h1");
    const code = title?.querySelector("code");
    return title && code ? [parseFloat(getComputedStyle(title).fontSize), parseFloat(getComputedStyle(code).fontSize)] : [0, 0];
  });
  check(sizes[1] >= 0.8 * sizes[0], `the title's code is ${sizes[1]}px in a ${sizes[0]}px title`);

  const rows = await table.locator("tbody tr[data-clause]").evaluateAll((trs) =>
    trs.map((tr) => ({
      clause: tr.dataset.clause,
      rowHeader: tr.querySelectorAll("th[scope=row]").length,
      cells: [...tr.querySelectorAll("td")].map((td) => ({
        state: td.dataset.state,
        label: td.querySelector(".state")?.textContent ?? "",
        details: td.querySelector("details")?.textContent ?? "",
      })),
    })),
  );
  const shown = rows.map((r) => r.clause);
  check(rows.length > 0, "the matrix has no row");
  check(rows.length === expected.size, `${rows.length} clause rows, ${expected.size} expected`);
  check(new Set(shown).size === shown.length, "a clause has two rows");
  for (const clause of expected.keys()) check(shown.includes(clause), `no row for clause ${clause}`);
  for (const clause of shown) check(expected.has(clause), `a row for clause ${clause}, which no case has`);
  for (const row of rows) {
    check(row.rowHeader === 1, `row ${row.clause} has no row header`);
    check(row.cells.length === runs.length, `row ${row.clause} has ${row.cells.length} cells`);
    row.cells.forEach((cell, column) => {
      const want = stateOf(expected.get(row.clause)?.[column] ?? []);
      check(cell.state === want, `${row.clause}, column ${column + 1}: ${cell.state}, expected ${want}`);
      check(cell.label.includes(want), `${row.clause}, column ${column + 1}: no word label "${want}"`);
    });
  }
  for (const [column, clause, id] of failing) {
    const cell = rows.find((r) => r.clause === clause)?.cells[column];
    check(cell?.details.includes(id), `the details of ${clause}, column ${column + 1} do not list ${id}`);
  }
  // Open one failing cell, as a reader would, before the screenshot.
  const summary = table.locator("td details summary").first();
  if ((await summary.count()) > 0) await summary.click();
  await tab.screenshot({ path: screenshot, fullPage: true });
  check(errors.length === 0, errors.join("; "));
  console.log(`rows ${rows.length}, columns ${headers.length - 1}, failing cells checked ${failing.length}; screenshot ${screenshot}`);
} finally {
  await browser.close();
}
for (const problem of problems) console.error(`FAIL ${problem}`);
console.log(`results-page: ${passed} passed, ${problems.length} failed`);
process.exit(problems.length === 0 ? 0 : 1);
