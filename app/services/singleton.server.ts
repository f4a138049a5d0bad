// The Express server and the Remix build are separate module graphs (and the
// dev server re-imports the build on every change), so process-wide state such
// as the database client lives on globalThis under one name.
function registry(): Map<string, unknown> {
  const store = globalThis as unknown as { __spinRadio?: Map<string, unknown> };
  store.__spinRadio ??= new Map();
  return store.__spinRadio;
}

export function singleton<T>(name: string, create: () => T): T {
  const values = registry();
  if (!values.has(name)) values.set(name, create());
  return values.get(name) as T;
}

/** The value if one was set, without creating it. */
export function peekSingleton<T>(name: string): T | undefined {
  return registry().get(name) as T | undefined;
}

/** Replaces a process-wide value (set at boot; cleared when a server stops). */
export function setSingleton<T>(name: string, value: T | undefined): void {
  if (value === undefined) registry().delete(name);
  else registry().set(name, value);
}
