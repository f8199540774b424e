// The last step of `npm run build`: puts Scalar's browser bundle into dist/, so that the packed service serves /docs
// without the @scalar/api-reference package (src/http/api-reference-bundle.ts says why).
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_BUNDLE_DIR, BUNDLE_FILE, installedBundleDir } from '../dist/http/api-reference-bundle.js';

mkdirSync(BUILT_BUNDLE_DIR, { recursive: true });
copyFileSync(join(installedBundleDir(), BUNDLE_FILE), join(BUILT_BUNDLE_DIR, BUNDLE_FILE));
