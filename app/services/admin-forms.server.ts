import { data } from "@remix-run/node";
import type { AdminResult } from "~/components/admin/AdminForm";
import { requestTranslator } from "~/i18n/language.server";
import { keyedMessage, translateFormResult, translateMessage } from "~/utils/forms/form";
import { isPlainText } from "~/utils/plain-text";
import { roleMay, type StaffPermission, type StaffRole } from "~/utils/staff-roles";
import { forbidden } from "./admin-session.server";
import { readMultipart, readPartBounded, readUrlEncoded, type FormLimits } from "./form-body.server";
import { formatBytes, MAX_IMAGE_BYTES, UploadError } from "./uploads.server";

const MAX_FIELD_BYTES = 64 * 1024;
const MAX_PARTS = 40;
const URLENCODED_LIMITS: FormLimits = { maxBytes: 1024 * 1024, maxFields: MAX_PARTS, maxFieldBytes: MAX_FIELD_BYTES };

/** An admin form post: its text fields, its uploaded files, and why a file was refused before it was read. */
export interface AdminFormData {
  fields: Record<string, string>;
  /** Only files that were actually chosen (an empty file input is absent). */
  files: Record<string, Buffer>;
  /** A clear message when an upload was over the size limit (nothing of it was kept). */
  fileError: string | null;
}

export class AdminFormError extends Error {
  name = "AdminFormError";
}

/**
 * Reads an admin form (urlencoded or multipart) with bounded memory: files up
 * to the image size limit, text fields up to 64 KB, at most 40 parts. Files
 * here are images, kept in memory: at most 10 MB each and re-encoded by sharp,
 * which decodes them whole anyway (episode audio streams to disk instead, see
 * readEpisodeForm in episode-form.server.ts). A body
 * that is not a complete form, or text with control characters or invalid
 * UTF-8, is refused with an AdminFormError.
 */
export async function readAdminForm(request: Request): Promise<AdminFormData> {
  let result: AdminFormData;
  try {
    result = await readFormParts(request);
  } catch (error) {
    // A Response is the 413 of a form over the limits (see readUrlEncoded).
    if (error instanceof AdminFormError || error instanceof Response) throw error;
    throw new AdminFormError("forms.formUnreadable");
  }
  for (const [name, value] of Object.entries(result.fields)) {
    if (!isPlainText(value)) throw new AdminFormError(keyedMessage("forms.fieldNotPlainText", { name }));
  }
  return result;
}

async function readFormParts(request: Request): Promise<AdminFormData> {
  const result: AdminFormData = { fields: {}, files: {}, fileError: null };
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("multipart/form-data")) {
    if (!type.startsWith("application/x-www-form-urlencoded")) throw new Error("not a form");
    for (const [name, value] of await readUrlEncoded(request, URLENCODED_LIMITS)) result.fields[name] = value;
    return result;
  }
  const { fields, refusal } = await readMultipart(request, {
    maxParts: MAX_PARTS,
    maxFieldBytes: MAX_FIELD_BYTES,
    onFile: async (part) => {
      const bytes = await readPartBounded(part.data, MAX_IMAGE_BYTES);
      // Too large: the form is still handled, and says so where the file was chosen.
      if (bytes === null) result.fileError = keyedMessage("forms.imageTooLargeNothingChanged", { limit: formatBytes(MAX_IMAGE_BYTES) });
      else if (bytes.length > 0) result.files[part.name] = bytes;
      return null;
    },
  });
  for (const [name, value] of fields) result.fields[name] = value;
  if (refusal) throw new AdminFormError(refusal);
  return result;
}

/** What an admin form handler decides; the form's id is added by `answerAdminForm`. */
export type AdminOutcome = Omit<AdminResult, "formId" | "scope" | "values">;
export type AdminHandler = ((form: AdminFormData) => Promise<AdminOutcome>) & { scope?: "page" };

/** Marks a handler whose answer belongs on the page's status line (its form may be gone afterwards). */
export function pageScoped(handler: (form: AdminFormData) => Promise<AdminOutcome>): AdminHandler {
  return Object.assign(handler, { scope: "page" as const });
}

/**
 * Reads an admin form, runs the handler its `intent` names and answers with
 * an AdminResult (HTTP 400 when refused). Problems with the input, such as an
 * UploadError, become the message; nothing was changed in that case.
 * Messages may be keyed (keyedMessage): they are translated here for the admin's language.
 */
export async function answerAdminForm(request: Request, handlers: Record<string, AdminHandler>) {
  const { t } = await requestTranslator(request);
  let form: AdminFormData;
  try {
    form = await readAdminForm(request);
  } catch (error) {
    if (!(error instanceof AdminFormError)) throw error;
    return data<AdminResult>({ formId: "", ok: false, message: translateMessage(error.message, t), scope: "page" }, { status: 400 });
  }
  const formId = form.fields.formId ?? "";
  const handler = handlers[form.fields.intent ?? ""];
  if (!handler) return data<AdminResult>({ formId, ok: false, message: t("forms.actionUnknown"), scope: "page" }, { status: 400 });
  const scope = handler.scope ? { scope: handler.scope } : {};
  const { formId: _formId, intent: _intent, ...values } = form.fields;
  const refused = (outcome: AdminOutcome) => data<AdminResult>({ formId, ...translateFormResult(outcome, t), values, ...scope }, { status: 400 });
  if (form.fileError) return refused({ ok: false, message: form.fileError });
  try {
    const outcome = await handler(form);
    return outcome.ok ? data<AdminResult>({ formId, ...translateFormResult(outcome, t), ...scope }) : refused(outcome);
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    return refused({ ok: false, message: error.message });
  }
}

/**
 * A form handler only a role with `permission` may run, inside a page other roles may use (the
 * dashboard's PINs and station settings): anyone else's post is refused with 403 and changes nothing.
 */
export function permitted(request: Request, actor: { role: StaffRole }, permission: StaffPermission, handler: AdminHandler): AdminHandler {
  return Object.assign(
    async (form: AdminFormData) => {
      if (!roleMay(actor.role, permission)) throw await forbidden(request);
      return handler(form);
    },
    handler.scope ? { scope: handler.scope } : {},
  );
}
