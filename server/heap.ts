import v8 from "node:v8";

// Each full garbage collection lets the heap grow to at most 1.5× what survived it.
const HEAP_GROWING_PERCENT = 50;

/**
 * Under load V8 grows the old generation up to 4× what survived the last full collection before
 * it collects again. A page render's objects live across a few young collections (the request
 * waits on the database), so they are promoted and then sit there as garbage: with about 55 MB
 * of live data the heap reached 230 MB and the process 500 MB during `npm run bench`. Capping the
 * growth step (not the heap size, which would crash a station whose live data outgrew the cap)
 * kept the process under 290 MB for about 5 % more CPU per uncached page.
 *
 * Set at start rather than on the command line so that every way of starting the server
 * (`npm run serve`, the Docker image, the benchmark) gets it; a `--heap-growing-percent` given
 * to node explicitly wins.
 */
export function limitHeapGrowth(): void {
  if (process.execArgv.some((flag) => flag.startsWith("--heap-growing-percent"))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
