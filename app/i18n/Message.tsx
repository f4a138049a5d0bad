import { cloneElement, Fragment, type ReactElement, type ReactNode } from "react";
import type { MessageKey, MessageValues } from "./keys";
import { useT } from "./translate";

// A character no message or value uses, standing in for "<" inside values while tags are read.
const LESS_THAN = "\uE000";
const TAG = /<(\w+)>([\s\S]*?)<\/\1>|<(\w+)\/>/;

/** The message's text with each <name>…</name> (or <name/>) replaced by that component around its inner text. */
function withComponents(text: string, components: Record<string, ReactElement>, key = "m"): ReactNode[] {
  const nodes: ReactNode[] = [];
  let rest = text;
  for (let index = 0; ; index++) {
    const match = TAG.exec(rest);
    if (!match) break;
    const [whole, name = match[3], inner] = match;
    if (match.index > 0) nodes.push(rest.slice(0, match.index).replaceAll(LESS_THAN, "<"));
    const component = components[name];
    const children = inner === undefined ? undefined : withComponents(inner, components, `${key}.${index}`);
    nodes.push(component ? cloneElement(component, { key: `${key}.${index}` }, ...(children ?? [])) : <Fragment key={`${key}.${index}`}>{children}</Fragment>);
    rest = rest.slice(match.index + whole.length);
  }
  if (rest) nodes.push(rest.replaceAll(LESS_THAN, "<"));
  return nodes;
}

/**
 * A message with markup inside, e.g. "Read the <0>notes</0>." with
 * components={{ 0: <Link to="/notes" /> }}: translators move the tags with the
 * words, and no sentence is cut into pieces in the code. Lingui's ICU runtime
 * fills the values first; a "<" inside a value is never read as a tag.
 */
export function Message({ id, values, components }: { id: MessageKey; values?: MessageValues; components: Record<string, ReactElement> }) {
  const { t } = useT();
  const safeValues =
    values && Object.fromEntries(Object.entries(values).map(([name, value]) => [name, typeof value === "string" ? value.replaceAll("<", LESS_THAN) : value]));
  return <>{withComponents(t(id, safeValues), components)}</>;
}
