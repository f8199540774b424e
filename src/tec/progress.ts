/**
 * How a migration shows where it is: on a terminal, a bar per phase with counts and an ETA
 * (cli-progress); anywhere else (a log, a pipe), a plain line per tenth of a phase.
 */
import cliProgress from 'cli-progress';

export type ProgressReporter = ((phase: string, done: number, total: number) => void) & { end(): void };

interface Stream {
  isTTY?: boolean;
  write(text: string): unknown;
}

function barReporter(stream: Stream): ProgressReporter {
  let phase = '';
  let bar: cliProgress.SingleBar | undefined;
  const report = (name: string, done: number, total: number) => {
    if (name !== phase) {
      bar?.stop();
      phase = name;
      bar = new cliProgress.SingleBar(
        {
          format: `${name.padEnd(10)} [{bar}] {value}/{total} | ETA {eta_formatted}`,
          stream: stream as NodeJS.WritableStream,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0);
    }
    bar!.setTotal(total);
    bar!.update(done);
  };
  return Object.assign(report, { end: () => bar?.stop() });
}

function lineReporter(stream: Stream): ProgressReporter {
  const report = (phase: string, done: number, total: number) => {
    const step = Math.max(1, Math.ceil(total / 10));
    if (done === total || done % step === 0) stream.write(`${phase} ${done}/${total}\n`);
  };
  return Object.assign(report, { end: () => undefined });
}

export function progressReporter(stream: Stream): ProgressReporter {
  return stream.isTTY ? barReporter(stream) : lineReporter(stream);
}
