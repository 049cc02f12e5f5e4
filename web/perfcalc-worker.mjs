// The default worker script of PerfcalcWorker (worker.mjs): perfcalc's
// methods, in a Web Worker or a Node worker thread.
import { serve } from "./worker.mjs";

await serve();
