// C0 controls except tab, line feed and carriage return; DEL and the C1 controls; and U+FFFD,
// which is what bytes that were not valid UTF-8 decode to. PostgreSQL cannot even store NUL.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_PLAIN_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFD]/;

/** False for text no person types into a form: control characters, or bytes that were not valid UTF-8. */
export function isPlainText(value: string): boolean {
  return !NOT_PLAIN_TEXT.test(value);
}
