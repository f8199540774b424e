import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium } from 'playwright-core';

/** Names a Chromium goes by on PATH, preferred first: Debian, Ubuntu, Google's builds. */
export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** Installs that usually leave the browser off PATH (a snap, Google's package, macOS bundles). */
const OFF_PATH = [
  '/snap/bin/chromium',
  '/opt/google/chrome/chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

export interface ChromiumSearch {
  /** Where `npx playwright-core install chromium` puts its browser; undefined on a platform it has none for. */
  playwrightPath?: () => string | undefined;
  /** The PATH to look along. */
  path?: string;
  isExecutable?: (file: string) => boolean;
}

function playwrightChromium(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    // playwright-core throws for a platform it ships no browser for.
    return undefined;
  }
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The Chromium the browser tests drive: playwright-core's own download when there is one, otherwise the system's (by
 * name along PATH, then the usual places off it); undefined when there is none.
 */
export function findChromium({
  playwrightPath = playwrightChromium,
  path = process.env.PATH ?? '',
  isExecutable = isExecutableFile,
}: ChromiumSearch = {}): string | undefined {
  const dirs = path.split(delimiter).filter(Boolean);
  const candidates = [
    playwrightPath(),
    ...CHROMIUM_NAMES.flatMap((name) => dirs.map((dir) => join(dir, name))),
    ...OFF_PATH,
  ];
  return candidates.find((file): file is string => file !== undefined && isExecutable(file));
}

/** Why the browser tests cannot run, for the skip notice and the CI failure. */
export const NO_CHROMIUM = `no Chromium (looked for playwright-core's browser, then ${CHROMIUM_NAMES.join(', ')} on PATH); run scripts/ci-browser.sh`;
