// One line per figure: what, the measured value, the target, PASS or MISS.
export interface Target {
  text: string;
  met: boolean;
}

const misses: string[] = [];

/** `note` says why, when it helps to read a miss (e.g. the failing Lighthouse audits). */
export function figure(label: string, value: string, target?: Target, note?: string): void {
  const verdict = target ? `${`target ${target.text}`.padEnd(18)} ${target.met ? "PASS" : "MISS"}` : "";
  console.log(`${label.padEnd(44)} ${value.padStart(22)}   ${verdict}${note ? `  (${note})` : ""}`.trimEnd());
  if (target && !target.met) misses.push(`${label}: ${value} (target ${target.text})`);
}

/** A figure that could not be measured (the reason is printed instead of a value). */
export function unmeasured(label: string, reason: string, target?: string): void {
  console.log(`${label.padEnd(44)} ${"n/a".padStart(22)}   ${target ? `target ${target}`.padEnd(18) + " MISS" : ""}  (${reason})`);
  if (target) misses.push(`${label}: not measured, ${reason} (target ${target})`);
}

export function heading(text: string): void {
  console.log(`\n${text}`);
}

export function missedTargets(): string[] {
  return misses;
}

export const formatNumber = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }) : "n/a";
export const megabytes = (bytes: number | null) => (bytes === null ? "n/a" : `${formatNumber(bytes / 1024 / 1024, 1)} MB`);
export const kilobytes = (bytes: number) => `${formatNumber(bytes / 1024, 1)} KB`;
