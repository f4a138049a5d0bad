// Beside ./safe-redirect rather than in it: the header of every page needs only this, and /listen's
// first-load JavaScript has a budget (issue 14); the full check is for the server and admin forms.

/**
 * This page's path, for a link back to it (the drawer and dialog toggles) that cannot leave the
 * site. Any path renders a page (a 404 at worst), so `//evil.example/x` or `/\evil.example/x`
 * is a page here, but as a link a browser reads it as another host: it becomes `/evil.example/x`.
 */
export function sameSitePath(pathname: string): string {
  return pathname.replace(/^[/\\]+/, "/");
}
