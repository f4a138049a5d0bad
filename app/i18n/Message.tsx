import { Trans } from "@lingui/react";
import type { ReactElement } from "react";
import type { MessageKey, MessageValues } from "./keys";

/**
 * A message with markup inside, e.g. "Read the <0>privacy notes</0>." with
 * components={{ 0: <Link to="/privacy" /> }}: translators move the tags with
 * the words, and no sentence is cut into pieces in the code.
 */
export function Message({ id, values, components }: { id: MessageKey; values?: MessageValues; components: Record<string, ReactElement> }) {
  return <Trans id={id} values={values} components={components} />;
}
