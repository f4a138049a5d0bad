import sharp from "sharp";
import { objectKeys, UNREFERENCED_FILE } from "~/models/files.server";
import { db } from "~/services/db.server";
import { getStorage } from "~/services/storage.server";

/** Signs in with the admin PIN over HTTP and returns the Cookie header of the new admin session. */
export async function adminCookie(baseUrl: string, pin = "123456"): Promise<string> {
  const response = await fetch(`${baseUrl}/pin`, {
    method: "POST",
    body: new URLSearchParams({ kind: "admin", pin }),
    redirect: "manual",
  });
  if (response.status !== 302) throw new Error(`Admin PIN refused: HTTP ${response.status}`);
  return cookieFrom(response);
}

export function cookieFrom(response: Response): string {
  const header = response.headers.get("set-cookie") ?? "";
  return header.split(";")[0];
}

/** A small real PNG in a given colour (distinct colours give distinct files). */
export function testImage(color: string, width = 400, height = 300): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/** Posts an admin form as multipart, the way the browser does without JavaScript. */
export function postAdminForm(baseUrl: string, path: string, cookie: string, fields: Record<string, string>, files: Record<string, Buffer> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, value] of Object.entries(files)) form.append(name, new Blob([new Uint8Array(value)]), `${name}.png`);
  return fetch(`${baseUrl}${path}`, { method: "POST", body: form, headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
}

export async function storageKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of getStorage().list()) keys.push(key);
  return keys.sort();
}

/** Every object key the database points at (each StoredFile and its variants). */
export async function recordedKeys(): Promise<string[]> {
  const files = await db().storedFile.findMany({ select: { key: true, variantWidths: true, artworkSize: true } });
  return files.flatMap(objectKeys).sort();
}

/** Keys of StoredFile rows that no row points at. */
export async function unreferencedFiles(): Promise<string[]> {
  const files = await db().storedFile.findMany({
    where: UNREFERENCED_FILE,
    select: { key: true },
  });
  return files.map((file) => file.key);
}

/** Storage holds exactly what the database records, and every recorded file is in use. */
export async function expectStorageConsistent(): Promise<void> {
  const [stored, recorded, unused] = await Promise.all([storageKeys(), recordedKeys(), unreferencedFiles()]);
  expect(stored).toEqual(recorded);
  expect(unused).toEqual([]);
}
