import { runClusterWorker } from './run-cluster-worker.js';

// The program every cluster worker runs (`runClusterPrimary` forks it); it is told what to serve over IPC.
await runClusterWorker();
