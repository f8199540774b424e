import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where `/docs` finds Scalar's API reference, one self-contained browser script (the standalone bundle of
 * `@scalar/api-reference`, MIT). The build copies it into dist/ (scripts/copy-api-reference.mjs), so an installed
 * service serves it without any Scalar package: the package's own dependencies, its Vue components and their tools,
 * are some 300 MB that a browser script already contains.
 */

export const BUNDLE_FILE = 'standalone.js';

/** `dist/api-reference/` next to the built modules; from src/ it names a folder that does not exist. */
export const BUILT_BUNDLE_DIR = fileURLToPath(new URL('../api-reference/', import.meta.url));

/** The folder of the bundle in the installed devDependency; throws when the package is not installed. */
export function installedBundleDir(): string {
  const require = createRequire(import.meta.url);
  // The package exports no path to its browser build, which sits beside its main entry (dist/index.js).
  return join(dirname(require.resolve('@scalar/api-reference')), 'browser');
}

/** The build's copy when there is one (an installed service), else the devDependency's (a checkout running src/). */
export function bundlePath(): string {
  return join(existsSync(BUILT_BUNDLE_DIR) ? BUILT_BUNDLE_DIR : installedBundleDir(), BUNDLE_FILE);
}
