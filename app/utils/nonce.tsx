import { createContext, useContext } from "react";

// The server renders every inline script with this response's CSP nonce; in
// the browser it is empty (browsers hide nonces from the DOM anyway).
export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}
