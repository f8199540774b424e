// Preloaded (`--import`) by a worker thread started from the TypeScript sources under tsx
// (src/db/sqlite-worker.ts): on Node 20, `--import tsx` registers its loader in the main thread only.
import { register } from 'tsx/esm/api';

register();
