/**
 * Whether a request came over HTTPS: directly, or through a proxy that said so in
 * X-Forwarded-Proto (trusted only with TRUST_PROXY: the Express adapter builds the request URL
 * from req.protocol). Cookies are `Secure` exactly then; over plain HTTP a browser would drop a
 * Secure cookie, and the admin's PIN dialog would ask again and again.
 */
export function secureRequest(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}
