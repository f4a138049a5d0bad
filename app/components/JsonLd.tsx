import { useNonce } from "~/utils/nonce";

/**
 * Structured data in a page (schema.org JSON-LD). Not run by the browser, but a script element all
 * the same: it carries the response's nonce like every other, and `<` is escaped so no text in the
 * data (a title, a description) can close the element.
 */
export function JsonLd({ data }: { data: object }) {
  const nonce = useNonce();
  const json = JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return <script type="application/ld+json" nonce={nonce} dangerouslySetInnerHTML={{ __html: json }} />;
}
