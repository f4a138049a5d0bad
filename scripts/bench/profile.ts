// Reads a V8 .cpuprofile (node --cpu-prof) and says where the time went: the functions with
// the most self time, and the same time grouped by package (or "app", "node:", "(gc)"...).

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function owner(url: string): string {
  if (!url) return "(native / V8)";
  if (url.startsWith("node:")) return "node:";
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  if (url.includes("/build/")) return "app (server build)";
  return "app";
}

/** Lines to print: top self-time functions and packages, as shares of the sampled time. */
export function summariseProfile(json: string, top = 15): string[] {
  const profile = JSON.parse(json) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
    total += delta;
  });
  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  let idle = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === "(idle)" || functionName === "(program)") {
      if (functionName === "(idle)") idle += us;
    }
    const name =
      `${functionName || "(anonymous)"} ${url ? `${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(app|server|build)\//, "$1/")}:${lineNumber + 1}` : ""}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + us);
    const group = ["(garbage collector)", "(idle)", "(program)"].includes(functionName) ? functionName : owner(url);
    packages.set(group, (packages.get(group) ?? 0) + us);
  }
  const busy = total - idle;
  const share = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
  const rank = (map: Map<string, number>) =>
    [...map]
      .filter(([name]) => name !== "(idle)" && !name.startsWith("(idle)"))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top);
  return [
    `profile: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy; shares of busy time:`,
    "by package:",
    ...rank(packages).map(([name, us]) => `  ${share(us)}  ${name}`),
    "by function (self time):",
    ...rank(functions).map(([name, us]) => `  ${share(us)}  ${name}`),
  ];
}
