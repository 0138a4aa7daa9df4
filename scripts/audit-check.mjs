// Fails when `npm audit --omit=dev` reports a high or critical advisory at a production
// dependency that is not explained below (and in docs/dependencies.md).
//
//   node scripts/audit-check.mjs
//
// Exit codes: 0 none unexplained; 1 unexplained high/critical advisories (listed); 2 the audit
// could not run (npm's advisory endpoint unreachable). Not part of .ci/run: CI's network may not
// reach the endpoint, and a check that fails for lack of network would teach people to ignore it.
import { spawnSync } from 'node:child_process';

/** Advisory URL (https://github.com/advisories/GHSA-…) → why it stays. Keep docs/dependencies.md in step. */
const EXPLAINED = {};

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], {
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  report = null;
}
if (!report || report.error || !report.metadata) {
  const reason =
    report?.error?.summary ||
    report?.message ||
    run.stderr.split('\n').find((line) => line.includes('audit')) ||
    'no report';
  console.error(`audit-check: npm audit did not run (${reason.trim()})`);
  process.exit(2);
}

const unexplained = [];
const explained = [];
for (const [name, vulnerability] of Object.entries(report.vulnerabilities ?? {})) {
  for (const via of vulnerability.via) {
    // A string names the dependency that carries the advisory; the advisory itself is listed there.
    if (typeof via === 'string' || !['high', 'critical'].includes(via.severity)) continue;
    const line = `${via.severity} ${name} ${via.range}: ${via.title} (${via.url})`;
    if (EXPLAINED[via.url]) explained.push(`${line}\n    explained: ${EXPLAINED[via.url]}`);
    else unexplained.push(line);
  }
}
const counts = report.metadata.vulnerabilities;
console.log(
  `npm audit --omit=dev: ${Object.entries(counts)
    .map(([level, n]) => `${n} ${level}`)
    .join(', ')}`,
);
for (const line of explained) console.log(`  ${line}`);
if (unexplained.length > 0) {
  console.error(
    `audit-check: ${unexplained.length} high/critical advisories at production dependencies are not explained:`,
  );
  for (const line of unexplained) console.error(`  ${line}`);
  process.exit(1);
}
console.log('audit-check: no unexplained high or critical advisory at production dependencies');
