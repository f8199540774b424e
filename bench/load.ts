import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { LoadPlan, LoadResult } from './drive.js';
import { ROOT } from './processes.js';

/** The parent side of the load generator process (bench/drive.ts). */
export class LoadDriver {
  private readonly child: ChildProcess;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(r: LoadResult): void; reject(e: Error): void }>();

  constructor() {
    this.child = fork(join(ROOT, 'bench', 'drive.ts'), [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (message: { id: number; result?: LoadResult; error?: string }) => {
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      if (message.result) waiter.resolve(message.result);
      else waiter.reject(new Error(`load generator: ${message.error}`));
    });
    this.child.on('exit', (code) => {
      for (const waiter of this.waiting.values())
        waiter.reject(new Error(`the load generator exited with status ${code}`));
      this.waiting.clear();
    });
  }

  run(plan: LoadPlan): Promise<LoadResult> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, plan });
    });
  }

  close(): void {
    if (this.child.connected) this.child.disconnect();
  }
}
