import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { findChromium } from '../support/browser.js';

describe('findChromium', () => {
  const root = mkdtempSync(join(tmpdir(), 'calendar-chromium-finder-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  /** A file at `dir/name`, executable unless told otherwise. */
  function install(dir: string, name: string, mode = 0o755): string {
    mkdirSync(join(root, dir), { recursive: true });
    const file = join(root, dir, name);
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, mode);
    return file;
  }
  const nowhere = () => join(root, 'no-playwright-download');
  const onPath = (...dirs: string[]) => dirs.map((d) => join(root, d)).join(delimiter);

  it("prefers playwright-core's own browser when it is installed", () => {
    const own = install('ms-playwright', 'chrome');
    install('bin-a', 'chromium');
    assert.equal(findChromium({ playwrightPath: () => own, path: onPath('bin-a') }), own);
  });

  it('otherwise takes the first name found along PATH, chromium before chromium-browser and google-chrome', () => {
    install('bin-b', 'google-chrome');
    const browser = install('bin-c', 'chromium-browser');
    assert.equal(findChromium({ playwrightPath: nowhere, path: onPath('bin-b', 'bin-c') }), browser);
    assert.equal(
      findChromium({ playwrightPath: nowhere, path: onPath('bin-b') }),
      join(root, 'bin-b', 'google-chrome'),
    );
  });

  it('passes over a file that is not executable and a directory of that name', () => {
    install('bin-d', 'chromium', 0o644);
    mkdirSync(join(root, 'bin-e', 'chromium'), { recursive: true });
    const chrome = install('bin-f', 'google-chrome');
    assert.equal(findChromium({ playwrightPath: nowhere, path: onPath('bin-d', 'bin-e', 'bin-f') }), chrome);
  });

  it('finds nothing when playwright-core has no browser for the platform and none is on PATH', () => {
    // Only files under the test's folder count, so that a browser installed on this machine is not found.
    const inRoot = (file: string) => file.startsWith(root) && existsSync(file);
    mkdirSync(join(root, 'bin-empty'));
    const search = { playwrightPath: () => undefined, isExecutable: inRoot };
    assert.equal(findChromium({ ...search, path: onPath('bin-empty') }), undefined);
    assert.equal(findChromium({ ...search, path: '' }), undefined);
  });
});
