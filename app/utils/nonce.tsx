import { createContext, useContext } from "react";

// The server renders every inline script with this response's CSP nonce; in
// the browser it is empty (browsers hide nonces from the DOM anyway).
export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}

// JsonLd is here, beside the nonce it carries, rather than in a module of its own: the pages with
// structured data (/listen, a show, an episode) would load that as one more small chunk, and
// /listen's first-load JavaScript has a budget (issue 14).

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
