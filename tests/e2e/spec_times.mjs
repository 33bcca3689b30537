// A reporter for `node --test` that prints nothing and keeps how long each spec file's tests
// took (the sum of its top-level tests, in seconds) in the JSON file SPEC_TIMES names, merged
// with what it held: scripts/test.sh starts the longest files first, so that no long file
// starts last and runs alone on a machine whose other core has nothing left to do.
//   node --test --test-reporter=spec --test-reporter-destination=stdout \
//     --test-reporter=./tests/e2e/spec_times.mjs --test-reporter-destination=/dev/null …
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

export default async function* specTimes(source) {
  const took = {};
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const file = basename(event.data.file);
      took[file] = (took[file] ?? 0) + (event.data.details?.duration_ms ?? 0) / 1000;
    }
  }
  const path = process.env.SPEC_TIMES;
  if (!path) return;
  let kept = {};
  try {
    kept = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    // None yet, or unreadable: this run's alone.
  }
  for (const [file, seconds] of Object.entries(took)) kept[file] = Math.round(seconds * 10) / 10;
  try {
    writeFileSync(path, `${JSON.stringify(kept, null, 1)}\n`);
  } catch {
    // A folder that can't be written: the next run starts the files in their own order.
  }
}
