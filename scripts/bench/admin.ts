/** An admin session on a bench server: the `__admin` cookie the PIN dialog's POST /pin gives. */
export async function adminCookie(url: string, pin: string): Promise<string> {
  const response = await fetch(`${url}/pin`, {
    method: "POST",
    headers: { Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ kind: "admin", pin }),
    redirect: "manual",
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__admin="));
  if (response.status !== 302 || !cookie) throw new Error(`POST /pin answered ${response.status} without an admin session`);
  return cookie.split(";")[0];
}
