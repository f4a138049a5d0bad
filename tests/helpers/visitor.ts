import { expect } from "vitest";

let nextAddress = 1;

/** A listener with a cookie jar and an address of their own (the server trusts X-Forwarded-For here). */
export class Visitor {
  readonly cookies = new Map<string, string>();
  readonly address = `203.0.113.${nextAddress++}`;
  constructor(private readonly base: string) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("X-Forwarded-For", this.address);
    if (this.cookies.size) headers.set("Cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(new URL(path, this.base), { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, ...value] = pair.split("=");
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0$/i.test(a));
      if (expired || value.join("=") === "") this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.join("="));
    }
    return response;
  }

  post(path: string, fields: Record<string, string>): Promise<Response> {
    return this.request(path, { method: "POST", body: new URLSearchParams(fields) });
  }

  /** The HTML of a page (following no redirects). */
  async page(path: string): Promise<string> {
    const response = await this.request(path);
    expect(response.status).toBe(200);
    return response.text();
  }

  /** The name the header shows for this visitor (the profile button's label). */
  async headerName(): Promise<string | undefined> {
    return /aria-label="Profile: ([^"]*)"/.exec(await this.page("/register"))?.[1];
  }
}
