/** What a listener sees when a post is not a form at all (sent as JSON, or cut off on the way). */
export const FORM_UNREADABLE = "The form could not be read: it arrived incomplete or was not a form. Please send it again.";

/**
 * The posted form of a public page. A body that is not a readable form is
 * answered with 400 and that message (thrown, so the action stops there).
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new Response(FORM_UNREADABLE, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}
