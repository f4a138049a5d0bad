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

/**
 * A file part of a multipart form, handed to a reader's `onFile`, which must read `data` to its
 * end unless it refuses the form (the rest of the body is then drained unparsed).
 */
export type MultipartFile = UploadHandlerPart & { filename: string };

export interface MultipartRules {
  maxParts: number;
  /** Bytes of one text field's value. */
  maxFieldBytes: number;
  /** Reads one file part (readPartBounded, streamToTempFile…); a message returned refuses the form. */
  onFile: (part: MultipartFile) => Promise<string | null>;
}

// RFC 2046: 1 to 70 of these, not ending in a space. A longer boundary only slows the search for it.
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/**
 * The boundary of a multipart/form-data Content-Type, or null when it is not one. Read by hand on
 * a short header: Remix's own split (/\s*;\s*boundary=/) takes quadratic time on a header of spaces.
 */
function multipartBoundary(contentType: string): string | null {
  if (contentType.length > 256) return null;
  const [type, ...parameters] = contentType.split(";");
  if (type.trim().toLowerCase() !== "multipart/form-data") return null;
  for (const parameter of parameters) {
    const equals = parameter.indexOf("=");
    if (equals === -1 || parameter.slice(0, equals).trim().toLowerCase() !== "boundary") continue;
    const value = parameter.slice(equals + 1).trim();
    const boundary = value.length > 1 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
    return BOUNDARY.test(boundary) ? boundary : null;
  }
  return null;
}

// Thrown out of the upload handler at the first refusal: the parser stops there.
const STOP_PARSING = Symbol("stop parsing");

/** Reads a text field while it fits `limit`; null as soon as it does not (the rest is not read). */
async function readFieldWithin(data: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of data) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The one multipart reader (public, admin and episode forms): text fields up to maxFieldBytes
 * each, at most maxParts parts, files to `onFile`. Parsing stops at the first refusal (one part
 * too many, a field too long, a file refused), which comes back, keyed, with the fields read
 * until then; the rest of the body is still read, unparsed and not kept, since a browser shows
 * an answer sent before its upload finished as a dropped connection (server/security.ts bounds
 * the body). Throws when the body is not a complete multipart form.
 */
export async function readMultipart(request: Request, rules: MultipartRules): Promise<{ fields: [string, string][]; refusal: string | null }> {
  const boundary = multipartBoundary(request.headers.get("Content-Type") ?? "");
  if (!boundary || !request.body) throw new Error("not a multipart form");
  const fields: [string, string][] = [];
  let refusal: string | null = null;
  let parts = 0;
  const refuse = (message: string): never => {
    refusal = message;
    throw STOP_PARSING;
  };
  // The parser reads the body through this gate, so that after a refusal the rest can be read here unparsed.
  const body = request.body.getReader();
  const gate = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await body.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    },
    { highWaterMark: 0 },
  );
  const gated = new Request(request.url, {
    method: request.method,
    headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
    body: gate,
    duplex: "half",
  } as RequestInit);
  try {
    await unstable_parseMultipartFormData(gated, async (part: UploadHandlerPart) => {
      if (++parts > rules.maxParts) refuse("forms.tooManyFields");
      if (part.filename !== undefined) {
        const refused = await rules.onFile(part as MultipartFile);
        if (refused) refuse(refused);
      } else {
        const bytes = await readFieldWithin(part.data, rules.maxFieldBytes);
        if (bytes === null) refuse(keyedMessage("forms.fieldTooLong", { name: part.name }));
        else fields.push([part.name, bytes.toString("utf8")]);
      }
      return undefined;
    });
  } catch (error) {
    if (error !== STOP_PARSING) throw error;
    while (!(await body.read()).done);
  }
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
      onFile: async () => "forms.unexpectedFile",
    });
  } catch {
    throw await unreadable(request);
  }
  if (read.refusal) throw await formTooLarge(request, limits);
  for (const [name, value] of read.fields) form.append(name, value);
  return form;
}
