import { formatNumber } from "./report";

/** A time in milliseconds as the figures print it. */
export const ms = (value: number) => `${formatNumber(value, value < 10 ? 1 : 0)} ms`;

/** Wall times of `samples` runs after a warm-up, sorted, and the CPU time one run costs this process. */
export async function timed(run: () => Promise<unknown>, samples: number): Promise<number[] & { cpuMs: number }> {
  await run();
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  // CPU time, unlike wall time, does not grow with what else the machine is running.
  return Object.assign(
    times.sort((a, b) => a - b),
    { cpuMs: (used.user + used.system) / 1000 / samples },
  );
}
