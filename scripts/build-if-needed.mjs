// `npm start` builds first when dist/ is missing or older than any source file.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execSync } from 'node:child_process';

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const built = existsSync('dist/cli.js') ? newest('dist') : 0;
if (!built || newest('src') > built) {
  console.log('building…');
  execSync('npm run build', { stdio: 'inherit' });
}
