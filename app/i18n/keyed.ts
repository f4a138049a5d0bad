import type { MessageKey, MessageValues } from "./keys";
import type { Translator } from "./translate";

// Messages travel as text through FormResults, AdminResults and Errors' messages, written where no
// reader's language is known (schemas, models). So they are message keys, with their values when they
// have some, and the route translates them for the reader at the end.
const KEYED = /^([a-z]+\.[A-Za-z0-9]+)(?: (\{.*\}))?$/s;

/** A message key and its values as one text ("forms.imageTooLarge {\"limit\":\"10 MB\"}"), for translateMessage. */
export function keyedMessage(key: MessageKey, values?: MessageValues): string {
  return values ? `${key} ${JSON.stringify(values)}` : key;
}

/** A keyed message (see keyedMessage) in the translator's language; any other text stays as it is. */
export function translateMessage(text: string, t: Translator["t"]): string {
  const match = KEYED.exec(text);
  if (!match) return text;
  let values: MessageValues | undefined;
  try {
    values = match[2] ? (JSON.parse(match[2]) as MessageValues) : undefined;
  } catch {
    return text;
  }
  return t(match[1] as MessageKey, values);
}
