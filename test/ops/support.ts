import { execFile } from 'node:child_process';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** Runs `calendar …` on a database, in a process of its own, without holding up this one's server. */
export function calendar(databaseUrl: string, ...argv: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', ...argv],
      { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8' },
      (err, out, errOut) => resolve({ code: err ? Number(err.code ?? 1) : 0, out, err: errOut }),
    );
  });
}
