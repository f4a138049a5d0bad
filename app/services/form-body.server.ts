import { unstable_parseMultipartFormData, type UploadHandlerPart } from "@remix-run/node";
import { serverI18n } from "~/i18n/catalogs.server";
import { keyedMessage } from "~/i18n/keyed";
import type { MessageKey, MessageValues } from "~/i18n/keys";
import { resolveLanguage } from "~/i18n/language.server";
import { translator } from "~/i18n/translate";
import { formatBytes } from "./uploads.server";

export interface FormLimits {
  /** Bytes of the whole body. */
  maxBytes: number;
  maxFields: number;
  /** Bytes of one field's value. */
  maxFieldBytes: number;
}

/**
 * Public forms (sign-in, registration, PIN, favourites) are a handful of fields. A long value
 * still reaches the form's own check (which says which field is too long); many fields do not.
 */
export const PUBLIC_FORM_LIMITS: FormLimits = { maxBytes: 2 * 1024 * 1024, maxFields: 30, maxFieldBytes: 2 * 1024 * 1024 };

const plain = { "Content-Type": "text/plain; charset=utf-8" };

/**
 * A refusal in the reader's language. Only the cookie and Accept-Language decide it (not the
 * account): a body being refused is not worth a database read.
 */
async function refusal(request: Request, status: number, key: MessageKey, values?: MessageValues): Promise<Response> {
  const { t } = translator(serverI18n(await resolveLanguage(request)));
  return new Response(t(key, values), { status, headers: plain });
}

const formTooLarge = (request: Request, limits: FormLimits) =>
  refusal(request, 413, "forms.formTooLarge", {
    fields: limits.maxFields,
    total: formatBytes(limits.maxBytes),
    perField: formatBytes(limits.maxFieldBytes),
  });

/** When a post is not a form at all (sent as JSON, or cut off on the way). */
const unreadable = (request: Request) => refusal(request, 400, "forms.formUnreadable");

/**
 * Reads an application/x-www-form-urlencoded body as it streams in, counting
 * bytes and fields while reading: a body over the limits is refused with 413
 * (a thrown Response) before the rest of it is read or anything is parsed.
 */
export async function readUrlEncoded(request: Request, limits: FormLimits): Promise<[string, string][]> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let separators = 0;
  let over = false;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Past the limits the rest is read but neither kept nor parsed (its size is bounded by
      // server/security.ts): a browser shows an answer sent mid-upload as a dropped connection.
      if (over) continue;
      bytes += value.length;
      for (const byte of value) if (byte === 0x26 /* & */) separators++;
      if (bytes > limits.maxBytes || separators >= limits.maxFields) over = true;
      else chunks.push(Buffer.from(value));
    }
  }
  if (over) throw await formTooLarge(request, limits);
  const fields = [...new URLSearchParams(Buffer.concat(chunks).toString("utf8"))];
  if (fields.length > limits.maxFields || fields.some(([, value]) => Buffer.byteLength(value) > limits.maxFieldBytes))
    throw await formTooLarge(request, limits);
  return fields;
}

/**
 * Reads one multipart part (or a whole body) to its end, keeping it only while it fits `limit`:
 * null when it was larger. Reading on keeps the rest arriving, so the answer reaches the browser.
 */
export async function readPartBounded(data: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of data) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return size > limit ? null : Buffer.concat(chunks);
}

/** A file part of a multipart form, handed to a reader's `onFile`, which must read `data` to its end. */
export type MultipartFile = UploadHandlerPart & { filename: string };

export interface MultipartRules {
  maxParts: number;
  /** Bytes of one text field's value. */
  maxFieldBytes: number;
  /** Reads one file part (readPartBounded, streamToTempFile…); a message returned refuses the form. */
  onFile: (part: MultipartFile) => Promise<string | null>;
}

/**
 * The one multipart reader (public, admin and episode forms): text fields up to maxFieldBytes
 * each, at most maxParts parts, files to `onFile`. Every part is read to its end even after a
 * refusal, since a browser shows an answer sent before its upload finished as a dropped
 * connection; the first refusal (a keyed message) comes back with the fields. Throws when the
 * body is not a complete multipart form.
 */
export async function readMultipart(request: Request, rules: MultipartRules): Promise<{ fields: [string, string][]; refusal: string | null }> {
  const fields: [string, string][] = [];
  let refusal: string | null = null;
  let parts = 0;
  await unstable_parseMultipartFormData(request, async (part: UploadHandlerPart) => {
    if (++parts > rules.maxParts) {
      refusal ??= "forms.tooManyFields";
      await readPartBounded(part.data, 0);
    } else if (part.filename !== undefined) {
      const refused = await rules.onFile(part as MultipartFile);
      if (refused) refusal ??= refused;
    } else {
      const bytes = await readPartBounded(part.data, rules.maxFieldBytes);
      if (bytes === null) refusal ??= keyedMessage("forms.fieldTooLong", { name: part.name });
      else fields.push([part.name, bytes.toString("utf8")]);
    }
    return undefined;
  });
  return { fields, refusal };
}

/**
 * A JSON body read with bounded memory: past `maxBytes` the rest is read but not kept (as for
 * forms: an answer sent mid-upload reaches a client as a dropped connection; server/security.ts
 * bounds the whole body), then refused with 413 (thrown). Undefined when it is not JSON.
 */
export async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  const bytes = request.body ? await readPartBounded(request.body as unknown as AsyncIterable<Uint8Array>, maxBytes) : Buffer.alloc(0);
  if (bytes === null) throw await refusal(request, 413, "forms.jsonTooLarge", { limit: formatBytes(maxBytes) });
  try {
    return JSON.parse(bytes.toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The posted form of a public page, read with bounded memory (PUBLIC_FORM_LIMITS):
 * urlencoded or multipart text fields; files are not accepted. A body that is
 * not a readable form is answered with 400, one over the limits with 413
 * (thrown, so the action stops there).
 */
export async function readForm(request: Request, limits: FormLimits = PUBLIC_FORM_LIMITS): Promise<FormData> {
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  const form = new FormData();
  if (type.startsWith("application/x-www-form-urlencoded")) {
    for (const [name, value] of await readUrlEncoded(request, limits)) form.append(name, value);
    return form;
  }
  if (!type.startsWith("multipart/form-data")) throw await unreadable(request);
  let read: Awaited<ReturnType<typeof readMultipart>>;
  try {
    // Public forms take no files: one is refused like a form over the limits.
    read = await readMultipart(request, {
      maxParts: limits.maxFields,
      maxFieldBytes: limits.maxFieldBytes,
      onFile: async (part) => {
        await readPartBounded(part.data, 0);
        return "forms.unexpectedFile";
      },
    });
  } catch {
    throw await unreadable(request);
  }
  if (read.refusal) throw await formTooLarge(request, limits);
  for (const [name, value] of read.fields) form.append(name, value);
  return form;
}
